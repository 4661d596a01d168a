from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(), 1), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


@partial(jax.shard_map, mesh=mesh, in_specs=P("data"), out_specs=P("data"), auto=frozenset({"model"}))  # expect: JAX504
def step(x):
    return x * 2


print(step(jnp.arange(2.0 * jax.device_count())))
