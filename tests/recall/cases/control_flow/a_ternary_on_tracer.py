import jax
import jax.numpy as jnp


@jax.jit
def relu_scale(x, t):
    return x * 2.0 if jnp.mean(x) > t else x  # expect: JAX201
