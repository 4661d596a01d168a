import jax
import jax.numpy as jnp
from jax.experimental import mesh_utils
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(mesh_utils.create_device_mesh((len(jax.devices()),)), ("data",))  # expect: JAX505
x = jax.device_put(jnp.ones(8), NamedSharding(mesh, P("data")))
print(x.sum())
