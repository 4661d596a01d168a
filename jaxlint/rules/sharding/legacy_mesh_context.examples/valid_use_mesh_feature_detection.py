import jax

# feature detection for an older JAX: on a JAX without `use_mesh` this branch never runs
if hasattr(jax.sharding, "use_mesh"):
    set_mesh = jax.sharding.use_mesh
else:
    set_mesh = jax.set_mesh

mesh = jax.make_mesh((1,), ("data",))
with set_mesh(mesh):
    print(jax.numpy.ones(2).sum())
