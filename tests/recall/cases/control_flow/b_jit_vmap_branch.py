import jax
import jax.numpy as jnp


def huber(r):
    if jnp.abs(r) < 1.0:  # expect: JAX201
        return 0.5 * r**2
    return jnp.abs(r) - 0.5


batched_huber = jax.jit(jax.vmap(huber))
batched_huber(jnp.linspace(-2.0, 2.0, 5))
