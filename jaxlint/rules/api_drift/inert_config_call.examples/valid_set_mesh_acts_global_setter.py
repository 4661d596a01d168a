import jax
mesh = jax.make_mesh((1,), ('x',))
jax.set_mesh(mesh)
