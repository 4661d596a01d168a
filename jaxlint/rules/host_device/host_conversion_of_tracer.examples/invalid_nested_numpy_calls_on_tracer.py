import jax
import jax.numpy as jnp
import numpy as np

@jax.jit
def rms_error(pred, target):
    err = pred - target
    return np.sqrt(np.mean(err ** 2))

rms_error(jnp.ones(4), jnp.zeros(4))
