import jax.numpy as jnp


def fill(n):
    out = jnp.zeros(n)

    def put(i):
        out.at[i].set(1.0)

    for i in range(n):
        put(i)
    return out


result = fill(3)
