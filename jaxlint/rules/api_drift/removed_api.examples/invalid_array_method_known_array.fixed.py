import jax
import jax.numpy as jnp


@jax.jit
def halves(x: jax.Array):
    a, b = jnp.split(x, 2)
    return a - b


parts = jnp.split(jnp.ones(4), 2)
key_words = jax.random.key_data(jax.random.key(0))
