import jax
import jax.numpy as jnp

@jax.jit
def f(x):
    if x > 0:
        return x
    return -x

f(jnp.ones(3))
