import jax
import jax.numpy as jnp

@jax.grad
def f(x):
    return x[x > 0].sum()

f(jnp.ones(3))
