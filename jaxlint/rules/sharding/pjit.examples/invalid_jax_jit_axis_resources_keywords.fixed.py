import jax
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((jax.device_count(),), ("x",))
s = NamedSharding(mesh, P("x"))
f = jax.jit(lambda x: x * 2, in_shardings=s, out_shardings=s)
y = f(jax.numpy.arange(2.0 * jax.device_count()))
