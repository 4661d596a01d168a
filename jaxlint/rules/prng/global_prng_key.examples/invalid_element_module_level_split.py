import jax

_KEYS = jax.random.split(jax.random.key(0), 4)


def noise(i, shape):
    return jax.random.normal(_KEYS[0], shape)
