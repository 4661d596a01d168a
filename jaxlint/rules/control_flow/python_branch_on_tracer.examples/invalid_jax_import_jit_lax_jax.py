from jax import jit, lax
from jax import numpy as np

def body(c):
    if c > 5.0:
        return c
    return c * 2

@jit
def grow(x):
    return lax.while_loop(lambda c: np.all(c < 100.0), body, x)

grow(1.0)
