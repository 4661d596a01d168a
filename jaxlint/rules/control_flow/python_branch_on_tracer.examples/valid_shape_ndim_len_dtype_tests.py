import jax
import jax.numpy as jnp

@jax.jit
def f(x):
    if x.shape[0] > 2:
        x = x[:2]
    if x.ndim == 1 and len(x) > 1:
        x = x * 2
    if x.dtype == jnp.float32:
        x = x + 1
    return x

f(jnp.ones(3))
