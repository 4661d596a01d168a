import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def f(x):
    return x * 2.0


y = f(jnp.arange(3.0))
host = np.asarray(y)
total = float(y.sum())
first = y[0].item()
