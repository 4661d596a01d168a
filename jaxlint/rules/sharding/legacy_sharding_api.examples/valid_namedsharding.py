import jax
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ('x',))
x = jax.device_put(jax.numpy.ones(4), NamedSharding(mesh, P()))
