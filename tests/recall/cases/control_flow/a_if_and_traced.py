import jax
import jax.numpy as jnp


@jax.jit
def clip_step(a, b):
    if a.sum() > 0 and b.sum() < 1:  # expect: JAX201
        return a
    return b
