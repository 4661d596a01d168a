import jax
import jax.numpy as jnp

@jax.jit
def f(x, n=3):
    return jnp.zeros(n) + x[:n]

f(jnp.ones(3))
