from jax.experimental import mesh_utils
from jax.sharding import Mesh

def build(cfg):
    return Mesh(mesh_utils.create_device_mesh(cfg.shape), cfg.names)
