from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

def run(state, n):
    def one_step(c, _):
        return c * 0.5, c

    return jax.jit(partial(lax.scan, one_step))(state, jnp.arange(n))

def add(a, b):
    return jax.jit(lambda x, y: x + y, inline=True)(a, b)

def text(x):
    return jax.jit(lambda v: v * 2).lower(x).as_text()

run(jnp.ones(3), 4)
add(1.0, 2.0)
text(jnp.ones(3))
