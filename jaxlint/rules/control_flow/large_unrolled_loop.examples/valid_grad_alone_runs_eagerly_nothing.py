import jax
import jax.numpy as jnp

@jax.grad
def f(x):
    for _ in range(200):
        x = x * 1.001
    return x

f(1.0)
