import jax
import jax.numpy as jnp

@jax.jit
def outer(x):
    return jax.jit(lambda v: v * 2)(x)

outer(jnp.ones(3))
outer(jnp.ones(3))
