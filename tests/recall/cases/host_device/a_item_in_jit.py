import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    scale = x.max().item()  # expect: JAX101
    return x / scale
