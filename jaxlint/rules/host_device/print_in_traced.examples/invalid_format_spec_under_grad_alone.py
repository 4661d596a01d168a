import jax
import jax.numpy as jnp


def loss(w):
    value = jnp.sum(w**2)
    print(f"loss={value:.4f}")
    return value


jax.grad(loss)(jnp.ones(3))
