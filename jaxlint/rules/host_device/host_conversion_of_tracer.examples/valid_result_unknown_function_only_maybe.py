import jax
import numpy as np
from mylib import unknown


@jax.jit
def f(x):
    stats = unknown(x)
    return x * float(stats)
