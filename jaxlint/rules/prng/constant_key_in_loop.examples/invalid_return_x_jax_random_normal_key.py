import jax


@jax.jit
def add_noise(x):
    key = jax.random.key(0)
    return x + jax.random.normal(key, x.shape)
