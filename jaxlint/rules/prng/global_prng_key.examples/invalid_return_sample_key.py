import jax

KEY = jax.random.key(0)


def sample(k):
    return jax.random.normal(k)


def draw():
    return sample(KEY)
