import jax


def f(key: jax.random.PRNGKey):
    return key
