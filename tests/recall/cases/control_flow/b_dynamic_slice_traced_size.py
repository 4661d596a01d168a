import jax
import jax.numpy as jnp
from jax import lax


def crop(seq, lengths):
    n = lengths[0]
    return lax.dynamic_slice_in_dim(seq, 0, n)  # expect: JAX203


jax.jit(crop)(jnp.arange(8.0), jnp.array([3, 5]))
