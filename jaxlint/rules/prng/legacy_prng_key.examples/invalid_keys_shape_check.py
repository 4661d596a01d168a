import jax

key = jax.random.PRNGKey(0)
keys = jax.random.split(key, 4)
assert keys.shape == (4, 2)
