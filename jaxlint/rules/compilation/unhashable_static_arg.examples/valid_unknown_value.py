from functools import partial

import jax

@partial(jax.jit, static_argnums=1)
def f(x, n):
    return x

def g(x, sizes):
    return f(x, sizes)
