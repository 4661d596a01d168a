import functools
import jax.experimental.pjit as pj

@functools.partial(pj.pjit, static_argnums=1)
def f(x, n):
    return x * n
