from functools import partial

import jax
import jax.numpy as jnp

@partial(jax.jit, donate_argnums=0)
def update(w):
    return w * 2

def run(w, flag):
    if flag:
        w = update(w)
    else:
        print(w.sum())
    return w

run(jnp.ones(3), True)
run(jnp.ones(3), False)
