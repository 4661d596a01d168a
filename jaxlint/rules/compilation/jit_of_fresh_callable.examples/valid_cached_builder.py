import functools
import jax
import jax.numpy as jnp

@functools.cache
def compiled(n):
    f = jax.jit(lambda x: x * n)
    f(jnp.ones(3))
    return f

compiled(2)(jnp.ones(3))
