import jax
import jax.numpy as jnp

@jax.jit
def f(x, idx):
    return x[idx]

f(jnp.ones(3), jnp.array([0, 1]))
