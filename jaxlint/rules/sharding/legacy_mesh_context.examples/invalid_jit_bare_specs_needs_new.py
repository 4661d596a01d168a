import jax
from jax.sharding import Mesh, PartitionSpec as P

with Mesh(jax.devices(), ('x',)) as m:
    f = jax.jit(lambda x: x * 2, in_shardings=P('x'))
    y = f(jax.numpy.arange(8.0 * len(m.devices)))
