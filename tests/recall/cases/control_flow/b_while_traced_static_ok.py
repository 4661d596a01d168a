from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def repeat_double(x, n):
    i = 0
    while i < n:
        x = x * 2
        i += 1
    return x


repeat_double(jnp.ones(3), 4)
