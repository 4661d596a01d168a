import jax
import jax.numpy as jnp

@jax.jit
def f(x, mask=None):
    if mask is not None:
        x = x * mask
    return x if mask is None else x + 1

f(jnp.ones(3))
