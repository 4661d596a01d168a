from jax.experimental.shard_map import shard_map

f = shard_map(g, mesh, P('x'), P())
