import jax
import jax.numpy as jnp

def f(xs):
    for x in xs:
        y = jax.jit(lambda v: v * 2)(x)
    return y
