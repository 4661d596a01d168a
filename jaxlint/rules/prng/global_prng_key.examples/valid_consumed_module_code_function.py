import jax

key = jax.random.key(0)
k1, k2 = jax.random.split(key)
x = jax.random.normal(k1, (3,))
