try:
    from jax import shard_map
except ImportError:
    from jax.experimental.shard_map import shard_map
