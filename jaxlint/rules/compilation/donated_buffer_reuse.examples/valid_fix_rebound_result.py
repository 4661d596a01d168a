from functools import partial

import jax
import jax.numpy as jnp

@partial(jax.jit, donate_argnums=0)
def update(w, g):
    return w - 0.1 * g

w = jnp.ones(3)
w = update(w, jnp.ones(3))
print(w.sum())
