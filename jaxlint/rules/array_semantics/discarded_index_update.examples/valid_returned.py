import jax.numpy as jnp


def put(x, i, v):
    return x.at[i].set(v)


y = put(jnp.zeros(3), 1, 2.0)
