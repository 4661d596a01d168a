import jax


def samples(n):
    return [jax.random.normal(jax.random.key(i), (2,)) for i in range(n)]
