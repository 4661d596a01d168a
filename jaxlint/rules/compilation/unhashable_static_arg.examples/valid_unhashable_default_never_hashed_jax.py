from functools import partial

import jax
import jax.numpy as jnp

@partial(jax.jit, static_argnames=('n',))
def f(x, n=[1, 2]):
    return x * len(n)

f(jnp.ones(3))
