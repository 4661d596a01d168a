from jax import numpy as jnp

def f(x):
    return jnp.zeros_like(a=x)
