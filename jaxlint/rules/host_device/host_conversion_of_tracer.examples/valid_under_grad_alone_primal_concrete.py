import jax
import jax.numpy as jnp


def loss(w):
    k = int(w)
    return w ** 2 * k


g = jax.grad(loss)(3.0)
