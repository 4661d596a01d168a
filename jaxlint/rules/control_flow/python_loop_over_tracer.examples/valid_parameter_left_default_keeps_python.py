import jax
import jax.numpy as jnp

@jax.jit
def f(x, steps=3):
    i = 0
    while i < steps:
        x = x * 2
        i += 1
    return x

f(jnp.ones(3))
