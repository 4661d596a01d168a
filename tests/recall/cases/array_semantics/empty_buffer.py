import jax.numpy as jnp


def init_state(n):
    return {"m": jnp.empty((n,)), "v": jnp.zeros((n,))}  # expect: JAX602
