import jax
import jax.numpy as jnp

_KEY = jax.random.key(0)

def next_key():
    global _KEY
    _KEY, sub = jax.random.split(_KEY)
    return sub

@jax.jit
def add_noise(x):
    return x + jax.random.normal(next_key(), x.shape)

a = add_noise(jnp.zeros(3))
b = add_noise(jnp.zeros(3))
assert not (a == b).all(), "jit froze the hidden RNG state: both calls drew the same noise"
