import jax
from jax.sharding import Mesh

mesh = Mesh(jax.devices(), ('x',))
with open('log.txt') as fh, jax.set_mesh(mesh):
    pass
