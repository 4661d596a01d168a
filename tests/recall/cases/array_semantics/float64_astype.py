import jax.numpy as jnp


def precise_sum(x):
    return jnp.sum(x.astype("float64"))  # expect: JAX603
