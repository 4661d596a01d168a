import jax
from jax.experimental import mesh_utils
from jax.sharding import Mesh

mesh = Mesh(mesh_utils.create_device_mesh((jax.device_count(), 1)), ('data', 'model'))
mesh1 = Mesh(mesh_utils.create_device_mesh((jax.device_count(),), jax.devices()), 'x')
