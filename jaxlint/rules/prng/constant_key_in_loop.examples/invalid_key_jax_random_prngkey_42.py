import jax


def walk(x):
    while x.sum() < 10:
        key = jax.random.PRNGKey(42)
        x = x + jax.random.uniform(key, x.shape)
    return x
