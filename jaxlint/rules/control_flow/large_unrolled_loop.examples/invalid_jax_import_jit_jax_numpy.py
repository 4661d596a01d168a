from jax import jit
import jax.numpy as np

@jit
def f(x):
    for i in range(-200, 0):
        x = np.roll(x, i)
    return x
