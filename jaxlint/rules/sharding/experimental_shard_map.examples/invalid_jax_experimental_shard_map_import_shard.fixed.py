from jax import shard_map

f = shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P(), check_vma=False)
