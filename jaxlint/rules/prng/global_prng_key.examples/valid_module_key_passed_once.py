import jax

KEY = jax.random.key(0)


def init_weights(key, shape):
    return jax.random.normal(key, shape)


w = init_weights(KEY, (3,))
