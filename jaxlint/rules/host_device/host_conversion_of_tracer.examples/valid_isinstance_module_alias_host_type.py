import numbers as nums

import jax
import jax.numpy as jnp


@jax.jit
def scale(x, s):
    if isinstance(s, nums.Real):
        s = float(s)
    return x * s


scale(jnp.ones(2), jnp.float32(2.0))
