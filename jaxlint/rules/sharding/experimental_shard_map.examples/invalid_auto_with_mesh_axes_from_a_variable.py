import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

AXES = ("data", "model")
mesh = jax.make_mesh((jax.device_count(), 1), AXES, axis_types=(jax.sharding.AxisType.Auto,) * 2)
f = jax.shard_map(lambda a: a * 2, mesh=mesh, in_specs=P("data"), out_specs=P("data"), auto=frozenset({"model"}))
out = jax.jit(f)(jnp.arange(2.0 * jax.device_count()))
