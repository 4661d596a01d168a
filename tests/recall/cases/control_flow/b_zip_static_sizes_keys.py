import jax
import jax.numpy as jnp

SIZES = [4, 8, 2]


@jax.jit
def init(key):
    keys = jax.random.split(key, len(SIZES))
    layers = []
    for size, k in zip(SIZES, keys, strict=True):
        layers.append(jax.random.normal(k, (size,)) * jnp.zeros(size))
        if size > 4:
            layers[-1] = layers[-1] * 0.5
    return layers


init(jax.random.key(0))
