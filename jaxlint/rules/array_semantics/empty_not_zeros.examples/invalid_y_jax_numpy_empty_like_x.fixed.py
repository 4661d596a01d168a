import jax
y = jax.numpy.zeros_like(x, dtype=jax.numpy.float32)
