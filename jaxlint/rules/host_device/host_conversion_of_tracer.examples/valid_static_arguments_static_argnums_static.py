import jax
import jax.numpy as jnp
import numpy as np
from functools import partial


@partial(jax.jit, static_argnums=1, static_argnames=('scale',))
def f(x, n, scale=2.0):
    w = np.arange(int(n), dtype=np.float32) * float(scale)
    return x[: int(n)] * np.asarray(w)


f(jnp.ones(5), 3, scale=1.5)
