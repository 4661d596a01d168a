import jax


def noisy(x, steps):
    for _ in range(steps):
        x = x + jax.random.normal(jax.random.key(0), x.shape)
    return x
