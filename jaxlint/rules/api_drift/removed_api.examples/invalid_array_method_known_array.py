import jax
import jax.numpy as jnp


@jax.jit
def halves(x: jax.Array):
    a, b = x.split(2)
    return a - b


parts = jnp.ones(4).split(2)
key_words = jax.random.key(0).unsafe_raw_array()
