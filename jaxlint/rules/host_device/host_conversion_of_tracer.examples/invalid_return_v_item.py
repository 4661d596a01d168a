import jax
import jax.numpy as jnp


def first(v):
    return v.item()


jax.vmap(first)(jnp.ones(3))
