import jax

KEY = jax.random.key(0)
x = jax.random.normal(KEY, (3,))
