import jax

KEY = jax.random.key(0)


def init_weights(shape):
    return jax.random.normal(KEY, shape)
