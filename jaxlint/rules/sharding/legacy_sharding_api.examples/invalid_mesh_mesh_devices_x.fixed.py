from jax.sharding import Mesh

mesh = Mesh(devices, ('x',))
