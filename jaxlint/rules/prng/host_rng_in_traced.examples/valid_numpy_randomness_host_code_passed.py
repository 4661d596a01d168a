import jax
import numpy as np


def make_data(n):
    return np.random.normal(size=(n, 3))


@jax.jit
def f(x):
    return x * 2


f(make_data(4))
