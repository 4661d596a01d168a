import jax
import jax.numpy as jnp

SIZES = [4, 8, 2]

@jax.jit
def init(key):
    keys = jax.random.split(key, len(SIZES))
    return [jax.random.normal(k, (size,)) for size, k in zip(SIZES, keys)]

init(jax.random.key(0))
