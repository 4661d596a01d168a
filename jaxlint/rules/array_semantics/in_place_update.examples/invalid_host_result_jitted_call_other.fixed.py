import jax
import jax.numpy as jnp

@jax.jit
def step(x):
    return x + 1.0

y = step(jnp.zeros(3))
y = y.at[0].set(y[0] // 2); z = 1
