import jax
import jax.numpy as jnp

def f(x):
    g = jax.jit(lambda v: v * 2)
    g(x)
    return g
