from functools import partial

import jax
import jax.numpy as jnp

@partial(jax.jit, donate_argnums=0)
def update(w):
    return w * 2

def run(ws):
    outs = []
    for w in ws:
        outs.append(update(w))
    return outs

def later(w):
    out = update(w)

    def inner():
        return w

    return out

run([jnp.ones(3), jnp.ones(3)])
later(jnp.ones(3))
