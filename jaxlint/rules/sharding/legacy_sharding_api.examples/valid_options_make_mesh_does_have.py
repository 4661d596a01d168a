from jax.experimental import mesh_utils
from jax.sharding import Mesh

mesh = Mesh(mesh_utils.create_device_mesh((4, 2), contiguous_submeshes=True), ('a', 'b'))
