from jax.experimental.shard_map import shard_map

wrappers = {'sm': shard_map}
