import jax
import jax.numpy as jnp


def loss(w):
    value = jnp.sum(w**2)
    jax.debug.print("loss={:.4f}", value)
    return value


jax.grad(loss)(jnp.ones(3))
