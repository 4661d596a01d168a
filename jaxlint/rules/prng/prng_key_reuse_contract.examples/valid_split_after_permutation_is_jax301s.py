import jax
import jax.numpy as jnp


def batches(key, data):
    order = jax.random.permutation(key, data.shape[0])
    # `permutation` drew with the keys this split returns: JAX301 reports it
    key, sub = jax.random.split(key)
    return data[order], sub


batches(jax.random.key(0), jnp.arange(6.0))
