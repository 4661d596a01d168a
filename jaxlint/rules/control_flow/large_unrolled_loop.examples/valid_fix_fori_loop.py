import jax
import jax.numpy as jnp
from jax import lax

@jax.jit
def f(x):
    return lax.fori_loop(0, 1000, lambda i, x: x + 0.01 * x, x)

f(jnp.ones(3))
