from jax.experimental.maps import Mesh

mesh = Mesh(devices, ('x',))
