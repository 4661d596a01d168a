import jax


def init(seed):
    key = jax.random.PRNGKey(seed)
    weights = jax.random.normal(key, (3, 3))
    key, sub = jax.random.split(key)
    return weights, key, sub


init(0)
