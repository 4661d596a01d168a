import jax

with jax.sharding.use_mesh(mesh):
    pass
