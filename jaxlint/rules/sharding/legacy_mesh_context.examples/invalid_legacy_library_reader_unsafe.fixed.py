import jax
import jax.numpy as jnp
from jax.interpreters import pxla
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

def legacy_shard(a):  # what older libraries do to find the mesh
    mesh = pxla.thread_resources.env.physical_mesh
    return jax.device_put(a, NamedSharding(mesh, P('x')))

mesh = Mesh(jax.devices(), ('x',))
with jax.set_mesh(mesh):
    y = legacy_shard(jnp.arange(2.0 * jax.device_count()))
