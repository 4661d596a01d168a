import jax
import jax.numpy as jnp
from jax import lax

@jax.jit
def f(x, n):
    return lax.fori_loop(0, n, lambda i, c: c * 2, x)

@jax.jit
def g(x):
    return lax.while_loop(lambda c: c.sum() < 10, lambda c: c * 2, x)

f(jnp.ones(3), 3)
g(jnp.ones(3))
