from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("x",), axis_types=(jax.sharding.AxisType.Auto,))


@partial(jax.shard_map, mesh=mesh, in_specs=P("x"), out_specs=P("x"), axis_names=frozenset({"x"}))
def double(x):
    return x * 2


print(double(jnp.arange(2.0 * jax.device_count())))
