import jax

KEY = jax.random.key(0)
noise = lambda shape: jax.random.uniform(KEY, shape)
