from jax.sharding import NamedSharding

s = NamedSharding(mesh, spec)
