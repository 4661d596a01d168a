import jax
from jax.experimental import shard_map

def build(mesh):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P(), axis_names=frozenset(mesh.axis_names) - frozenset({'y'}))
