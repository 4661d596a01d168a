import jax
import jax.numpy as jnp

@jax.jit
def step(x):
    return x + 1.0

y = step(jnp.zeros(3))
y[0] //= 2; z = 1
