import jax
import jax.numpy as jnp

@jax.jit
def f(x):
    for i in range(3):
        x = x + i
    return x

f(jnp.ones(3))
