import jax
y = jax.numpy.empty_like(x, dtype=jax.numpy.float32)
