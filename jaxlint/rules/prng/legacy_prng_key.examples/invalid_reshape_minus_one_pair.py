import jax

key = jax.random.PRNGKey(0)
keys = jax.random.split(key, 4)
per_step = jax.vmap(lambda k: jax.random.split(k, 3))(keys)
flat = per_step.reshape(-1, 2)  # 12 keys of two uint32 words
noise = jax.vmap(lambda k: jax.random.normal(k, (2,)))(flat)
print(noise.shape)
