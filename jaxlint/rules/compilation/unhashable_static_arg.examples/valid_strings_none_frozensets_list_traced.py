from functools import partial

import jax
import jax.numpy as jnp

@partial(jax.jit, static_argnums=1)
def f(x, mode):
    return x

f(jnp.ones(3), 'train')
f(jnp.ones(3), None)
f(jnp.ones(3), frozenset({1}))
f([1.0, 2.0], 2)
