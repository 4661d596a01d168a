from functools import partial

import jax
import jax.numpy as jnp

@partial(jax.jit, donate_argnums=0)
def update(w):
    return w * 2

def run(w, verbose):
    out = update(w)
    if verbose:
        print('old', w)
    return out

run(jnp.ones(3), True)
