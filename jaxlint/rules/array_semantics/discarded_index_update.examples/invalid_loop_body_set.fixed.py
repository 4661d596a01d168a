import jax
import jax.numpy as jnp


def body(i, acc):
    acc = acc.at[i].set(i * 2.0)
    return acc


result = jax.lax.fori_loop(0, 3, body, jnp.zeros(3))
