import jax


def sample(k):
    return jax.random.normal(k, (2,))


def many(n):
    return [sample(jax.random.key(3)) for _ in range(n)]
