import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def last_window(x, start):
    width = x.shape[0] // 2
    return lax.dynamic_slice(x, (start,), (width,))


last_window(jnp.arange(10.0), 3)
