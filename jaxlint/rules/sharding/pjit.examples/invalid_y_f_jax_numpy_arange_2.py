import jax
from jax.experimental.pjit import pjit
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ('x',))
f = pjit(lambda x: x + 1, in_axis_resources=NamedSharding(mesh, P('x')))
y = f(jax.numpy.arange(2.0 * jax.device_count()))
