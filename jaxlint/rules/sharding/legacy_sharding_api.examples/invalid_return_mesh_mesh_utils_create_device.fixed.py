from jax.experimental import mesh_utils
from jax.sharding import Mesh
import jax

def build(cfg):
    return jax.make_mesh(cfg.shape, cfg.names, axis_types=(jax.sharding.AxisType.Auto,) * len(cfg.names))
