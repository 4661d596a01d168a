import jax
import jax.numpy as jnp

_KEY = jax.random.key(0)


def next_key():
    global _KEY
    _KEY, sub = jax.random.split(_KEY)  # expect: JAX104
    return sub


@jax.jit
def add_noise(x):
    return x + jax.random.normal(next_key(), x.shape)  # expect: JAX305


a = add_noise(jnp.zeros(3))
b = add_noise(jnp.zeros(3))
