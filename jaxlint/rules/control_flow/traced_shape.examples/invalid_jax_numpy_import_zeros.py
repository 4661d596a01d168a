from jax import jit
from jax.numpy import zeros, arange

@jit
def f(n):
    return zeros(n) + arange(3)

f(3)
