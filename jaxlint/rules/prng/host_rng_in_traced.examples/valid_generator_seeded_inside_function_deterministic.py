import jax
import numpy as np


@jax.jit
def f(x):
    rng = np.random.default_rng(0)
    table = rng.normal(size=3)
    return x + table


f(np.zeros(3))
