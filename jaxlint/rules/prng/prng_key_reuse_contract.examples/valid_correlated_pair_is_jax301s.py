import jax


def sample(key):
    x = jax.random.normal(key, (3,))
    y = jax.random.uniform(key, (3,))  # the same bits as x: JAX301 reports it
    return x + y


sample(jax.random.key(0))
