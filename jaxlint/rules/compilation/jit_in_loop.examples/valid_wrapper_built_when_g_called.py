import jax
import jax.numpy as jnp

def f(x):
    return x * 2

for i in range(3):
    def g(x):
        return jax.jit(f)(x)
