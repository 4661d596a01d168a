import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("x",), axis_types=(jax.sharding.AxisType.Auto,))
f = jax.shard_map(lambda x: x * 2, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_rep=False)
print(f(jnp.arange(2.0 * jax.device_count())))
