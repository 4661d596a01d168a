import functools
import jax.experimental.pjit as pj
import jax

@functools.partial(jax.jit, static_argnums=1)
def f(x, n):
    return x * n
