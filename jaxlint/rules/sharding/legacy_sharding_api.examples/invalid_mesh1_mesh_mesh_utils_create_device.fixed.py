import jax
from jax.experimental import mesh_utils
from jax.sharding import Mesh

mesh = jax.make_mesh((jax.device_count(), 1), ('data', 'model'), axis_types=(jax.sharding.AxisType.Auto,) * 2)
mesh1 = jax.make_mesh((jax.device_count(),), ('x',), axis_types=(jax.sharding.AxisType.Auto,) * 1, devices=jax.devices())
