import jax

jax.config.update("jax_debug_key_reuse", True)


def draws(key, n):
    keys = jax.random.split(key, n)
    a = jax.random.normal(keys[0], (2,))
    b = jax.random.uniform(keys[1], (2,))
    c = [jax.random.normal(keys[i]) for i in range(2, n)]
    return a, b, c


draws(jax.random.key(0), 4)
