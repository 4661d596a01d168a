import jax
from jax.sharding import Mesh

mesh = Mesh(jax.devices(), ('x',))
