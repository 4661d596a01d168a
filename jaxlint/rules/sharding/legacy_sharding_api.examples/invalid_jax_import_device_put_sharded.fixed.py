import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

def shard(chunks, devices):
    return jax.tree.map(lambda *leaf: jax.device_put(jnp.stack(leaf), NamedSharding(jax.sharding.Mesh(devices, ('x',)), P('x'))), *chunks)
