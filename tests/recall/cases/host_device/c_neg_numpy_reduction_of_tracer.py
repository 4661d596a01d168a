import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def center(x):
    mu = np.mean(x, axis=0)
    return x - mu


center(jnp.arange(6.0).reshape(3, 2))
