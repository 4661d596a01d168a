from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("x",))


@partial(jax.shard_map, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=False)
def step(x):
    return x * 2
