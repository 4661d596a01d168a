import jax
import jax.numpy as jnp
import numpy as np


def _concatenate(x):
    if isinstance(x[0], np.ndarray):
        return np.concatenate(x)
    return jnp.concatenate(x)


f = jax.jit(_concatenate)
f([jnp.ones(2), jnp.zeros(3)])


@jax.jit
def scale(x, s):
    if isinstance(s, (int, float)):
        s = float(s)
    return x * s


scale(jnp.ones(2), jnp.float32(2.0))
