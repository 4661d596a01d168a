import jax
jax.config.update("jax_enable_x64", False)
key = jax.random.key(0)
noise = jax.random.normal(key, (3,), dtype=jax.numpy.float64)
