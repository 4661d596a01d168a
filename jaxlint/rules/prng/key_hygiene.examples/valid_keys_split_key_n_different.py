import jax


def draws(key, n):
    keys = jax.random.split(key, n)
    return [jax.random.normal(keys[i], (2,)) for i in range(n)]


draws(jax.random.key(0), 3)
