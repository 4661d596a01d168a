import jax
import jax.numpy as jnp
from jax.sharding import Mesh, PartitionSpec as P

@jax.jit
def total(a):
    parts = jax.shard_map(lambda b: b.sum(keepdims=True), in_specs=P('x'), out_specs=P('x'))(a)
    return jnp.sum(parts)

mesh = Mesh(jax.devices(), ('x',))
with mesh:
    t = total(jnp.arange(4.0 * jax.device_count()))
