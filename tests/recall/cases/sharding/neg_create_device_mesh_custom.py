import jax
from jax.experimental import mesh_utils
from jax.sharding import Mesh

devices = mesh_utils.create_device_mesh((len(jax.devices()),), allow_split_physical_axes=True)
mesh = Mesh(devices.reshape(-1), ("data",))
print(mesh.shape)
