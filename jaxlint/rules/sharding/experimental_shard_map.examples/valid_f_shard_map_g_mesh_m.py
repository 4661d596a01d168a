import jax

shard_map = jax.shard_map
f = shard_map(g, mesh=m, out_specs=s)
