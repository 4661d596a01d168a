import jax
import jax.numpy as jnp
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(jax.devices(), ('x',))
x = jnp.arange(4.0 * jax.device_count())
with jax.set_mesh(mesh):
    y = jax.lax.with_sharding_constraint(x, P('x'))
