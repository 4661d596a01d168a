import jax
import jax.numpy as jnp


@jax.jit
def solve(x):
    while jnp.linalg.norm(x) > 1e-3:  # expect: JAX202
        x = x * 0.5
    return x
