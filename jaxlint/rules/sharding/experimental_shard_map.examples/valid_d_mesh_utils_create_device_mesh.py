from jax.experimental import mesh_utils

d = mesh_utils.create_device_mesh((8,))
