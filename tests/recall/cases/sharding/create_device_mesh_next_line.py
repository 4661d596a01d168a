import jax
import jax.numpy as jnp
from jax.experimental import mesh_utils
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

devices = mesh_utils.create_device_mesh((len(jax.devices()), 1))  # expect: JAX505
mesh = Mesh(devices, axis_names=("data", "model"))
x = jax.device_put(jnp.ones((8, 2)), NamedSharding(mesh, P("data", None)))
print(x.sum())
