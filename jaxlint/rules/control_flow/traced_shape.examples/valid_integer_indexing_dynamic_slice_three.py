import jax
import jax.numpy as jnp

@jax.jit
def f(x, i):
    a = x[i]
    b = jax.lax.dynamic_slice(x, (i,), (2,))
    c = jnp.where(x > 0, x, 0)
    d = jnp.nonzero(x > 0, size=2, fill_value=0)
    e = jnp.unique(x, size=3)
    return a, b, c, d, e

f(jnp.ones(4), 1)
