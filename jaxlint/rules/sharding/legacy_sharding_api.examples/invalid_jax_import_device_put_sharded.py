from jax import device_put_sharded
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

def shard(chunks, devices):
    return device_put_sharded(chunks, devices)
