import jax
import jax.numpy as jnp
from functools import partial

@partial(jax.jit, static_argnames=('n',))
def f(x, n):
    assert x.sum() > 0, 'empty'
    return x * n

f(jnp.ones(3), 2)
