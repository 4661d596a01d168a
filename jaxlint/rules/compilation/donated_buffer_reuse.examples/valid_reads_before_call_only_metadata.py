from functools import partial

import jax
import jax.numpy as jnp

@partial(jax.jit, donate_argnums=0)
def update(w):
    return w * 2

w = jnp.ones(3)
print(w.sum())
out = update(w)
print(w.shape, w.dtype, len(w), w.is_deleted())
del w
