from functools import partial

import jax
import jax.numpy as jnp

@partial(jax.jit, donate_argnums=0)
def update(w):
    return w * 2

w = jnp.ones(3)
with jax.default_device(jax.devices()[0]):
    if (out := update(w)) is not None:
        print(out)
print(w)
