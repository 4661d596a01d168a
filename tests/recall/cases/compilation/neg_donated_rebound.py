from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def sgd(w, g):
    return w - 0.1 * g


w = jnp.ones(4)
for _ in range(3):
    w = sgd(w, jnp.ones(4))
print(w.sum())
