import jax


def init(key):
    w = jax.random.normal(key, (3,))
    b = jax.random.normal(key, (1,))  # expect: JAX301
    return w, b
