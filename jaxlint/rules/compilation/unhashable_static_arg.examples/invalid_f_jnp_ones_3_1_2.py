from functools import partial

import jax
import jax.numpy as jnp

@partial(jax.jit, static_argnums=1)
def f(x, keep):
    return x * len(keep)

f(jnp.ones(3), {1, 2})
