import functools
from jax import jit
import jax.numpy as jnp

@functools.partial(jit, static_argnames=('scale',))
def f(x, n, scale):
    for _ in range(n):
        x = x * scale
    return x

f(jnp.ones(3), 2, scale=0.5)
