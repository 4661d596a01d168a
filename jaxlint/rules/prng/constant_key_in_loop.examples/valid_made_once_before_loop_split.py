import jax


def noisy(x, steps):
    key = jax.random.key(0)
    for _ in range(steps):
        key, sub = jax.random.split(key)
        x = x + jax.random.normal(sub, x.shape)
    return x
