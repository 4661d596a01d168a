import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def f(x):
    n = int(x.shape[0])
    d = float(x.ndim)
    size = np.prod(x.shape)
    rank = np.ndim(x)
    rows = np.shape(x)[0]
    return x.reshape(n, -1) * d + size + rank + rows + len(x)


f(jnp.ones((4, 2)))
