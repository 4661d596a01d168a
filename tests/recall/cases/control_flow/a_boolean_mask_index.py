import jax
import jax.numpy as jnp


@jax.jit
def positives(x):
    return x[x > 0]  # expect: JAX203
