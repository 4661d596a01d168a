import jax

KEY = jax.random.key(0)


def describe():
    return KEY.shape, jax.random.key_data(KEY)
