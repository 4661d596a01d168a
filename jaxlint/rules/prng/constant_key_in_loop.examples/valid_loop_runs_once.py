import jax


def once(x):
    for _ in range(1):
        x = x + jax.random.normal(jax.random.key(0), x.shape)
    return x
