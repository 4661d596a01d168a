import jax

KEY = jax.random.key(0)


def f(KEY, shape):
    return jax.random.normal(KEY, shape)
