from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=(0,))
def scale(x):
    return x * 2.0


@jax.jit
def step(x):
    y = scale(x)
    return x + y


a = jnp.ones(3)
step(a)
assert not a.is_deleted()
