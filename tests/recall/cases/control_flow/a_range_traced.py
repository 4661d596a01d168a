import jax
import jax.numpy as jnp


@jax.jit
def repeat(x, n):
    for _ in range(n):  # expect: JAX202
        x = x + 1
    return x
