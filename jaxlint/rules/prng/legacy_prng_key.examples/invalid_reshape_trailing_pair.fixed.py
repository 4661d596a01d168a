import jax

key = jax.random.PRNGKey(0)
keys = jax.random.split(key, 8).reshape(2, 4, 2)  # two groups of four keys
noise = jax.vmap(jax.vmap(lambda k: jax.random.normal(k)))(keys)
print(noise.shape)
