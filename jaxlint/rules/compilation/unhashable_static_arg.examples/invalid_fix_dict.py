from functools import partial

import jax
import jax.numpy as jnp

@partial(jax.jit, static_argnames=['cfg'])
def f(x, cfg):
    return x * cfg['scale']

f(jnp.ones(3), cfg={'scale': 2.0})
