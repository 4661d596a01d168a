import jax
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ('x',))
f = jax.jit(lambda x: x + 1, in_shardings=NamedSharding(mesh, P('x')))
y = f(jax.numpy.arange(2.0 * jax.device_count()))
