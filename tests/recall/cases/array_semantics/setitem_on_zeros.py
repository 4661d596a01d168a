import jax.numpy as jnp


def one_hot(i, n):
    v = jnp.zeros(n)
    v[i] = 1.0  # expect: JAX601
    return v
