from jax.experimental.shard_map import shard_map

f = shard_map(body, mesh, in_specs=P('x'), out_specs=P(), check_rep=False)
