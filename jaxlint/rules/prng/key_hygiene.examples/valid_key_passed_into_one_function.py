import jax

KEY = jax.random.key(0)


def init(key):
    return jax.random.normal(key, (3,))


params = init(KEY)
