import jax
import jax.numpy as jnp
import numpy as onp


def dropout(x):
    mask = onp.random.binomial(1, 0.9, size=x.shape)  # expect: JAX303
    return x * mask / 0.9


batched = jax.jit(jax.vmap(dropout))
batched(jnp.ones((4, 3)))
