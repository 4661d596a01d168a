import jax
import jax.numpy as jnp


def body(i, u):
    u = u.at[0, :].divide(2)
    return u


print(jax.lax.fori_loop(0, 3, body, jnp.ones((2, 3))))
