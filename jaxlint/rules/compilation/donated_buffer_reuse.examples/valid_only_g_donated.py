from functools import partial

import jax
import jax.numpy as jnp

@partial(jax.jit, donate_argnums=1)
def update(w, g):
    return w - g

w = jnp.ones(3)
g = jnp.ones(3)
out = update(w, g)
print(w.sum())
