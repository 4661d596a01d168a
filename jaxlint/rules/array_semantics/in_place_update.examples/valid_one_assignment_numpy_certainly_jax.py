import numpy as np
import jax.numpy as jnp

def f(flag):
    if flag:
        x = np.zeros(3)
    else:
        x = jnp.zeros(3)
    x[0] = 1.0
    return x

f(True)
