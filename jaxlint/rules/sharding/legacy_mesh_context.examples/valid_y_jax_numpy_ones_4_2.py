import jax
from jax.sharding import Mesh

mesh = Mesh(jax.devices(), ('x',))
with jax.set_mesh(mesh):
    y = jax.numpy.ones(4) * 2
