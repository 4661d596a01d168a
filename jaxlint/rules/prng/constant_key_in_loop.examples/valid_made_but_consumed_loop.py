import jax


def make_keys(n):
    for _ in range(n):
        key = jax.random.key(0)
    return key
