import jax
import jax.numpy as jnp


def loss(w):
    if w.sum() > 0:
        return jnp.sum(w**2)
    return -jnp.sum(w)


print(jax.grad(loss)(jnp.ones(3)))
