import jax
import jax.numpy as jnp
import numpy as np

KEEP = np.array([True, False, True])

@jax.jit
def f(x):
    return x[KEEP], x.at[x.shape[0] - 1].set(0.0)

y = f(jnp.ones(3))[0]
host = y[y > 0]
idx = jnp.nonzero(y)
