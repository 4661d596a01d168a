import jax
from jax.experimental import shard_map

def build(mesh):
    return shard_map.shard_map(body, mesh, P('x'), P(), auto=frozenset({'y'}))
