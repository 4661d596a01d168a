from functools import partial

import jax
import jax.numpy as jnp

@partial(jax.jit, static_argnums=0)
def f(n, x):
    return x * n

def call(*args):
    return f(*args)

call(2, jnp.ones(3))
