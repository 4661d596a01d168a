import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def f(x, mask=None):
    if mask is None:
        return x
    return x * np.asarray(mask)
