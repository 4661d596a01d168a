import jax
import jax.numpy as jnp

@jax.jit
def f(x):
    for _ in range(100):
        x = x * 1.001
    return x

f(jnp.ones(3))
