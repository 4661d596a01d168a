import jax


def sample(key):
    key1, key2 = jax.random.split(key)
    mask = jax.random.bernoulli(key1, 0.5, (3,))
    # `key2` was meant here: JAX301 reports it and names `key2`
    noise = jax.random.uniform(key, (3,))
    return mask, noise


sample(jax.random.key(0))
