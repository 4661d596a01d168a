import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    print("{metrics}", x)  # expect: JAX103
    return x + 1
