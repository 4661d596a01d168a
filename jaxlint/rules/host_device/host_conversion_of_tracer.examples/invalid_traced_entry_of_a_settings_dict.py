import jax
import numpy as np


@jax.jit
def run(x):
    p = {"w": x * 2.0, "steps": 3}
    steps = int(p["steps"])  # a Python int: fine
    return np.asarray(p["w"]) * steps  # the traced entry


run(1.0)
