import jax

SEED = 0


def init(shape):
    return jax.random.normal(jax.random.key(SEED), shape)
