import jax
import numpy as np


@jax.jit
def f(x):
    np.random.seed(0)
    return x
