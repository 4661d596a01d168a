import jax

src = "jax._src.core"  # a string, not an import
x = jax.numpy.ones(2)
