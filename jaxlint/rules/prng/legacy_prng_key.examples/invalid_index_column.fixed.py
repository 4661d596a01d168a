import jax

key = jax.random.PRNGKey(0)
keys = jax.random.split(key, 4)
words = keys[:, 1]
print(words)
