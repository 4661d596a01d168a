import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P
from jax import shard_map

mesh = jax.make_mesh((jax.device_count(), 1), ('x', 'y'), axis_types=(jax.sharding.AxisType.Auto,) * 2)
f = shard_map(lambda a: jax.lax.psum(a, 'x'), mesh=mesh, in_specs=P('x'), out_specs=P(), axis_names=frozenset({'x'}))
out = jax.jit(f)(jnp.arange(4.0 * jax.device_count()))
