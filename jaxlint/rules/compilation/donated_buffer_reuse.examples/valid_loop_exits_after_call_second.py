from functools import partial

import jax
import jax.numpy as jnp

@partial(jax.jit, donate_argnums=0)
def update(w):
    return w * 2

w = jnp.ones(3)
for i in range(3):
    out = update(w)
    break
