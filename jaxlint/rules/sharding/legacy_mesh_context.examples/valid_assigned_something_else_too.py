import jax
from jax.sharding import Mesh

mesh = Mesh(jax.devices(), ('x',))
if cond:
    mesh = make_grid()
with mesh:
    pass
