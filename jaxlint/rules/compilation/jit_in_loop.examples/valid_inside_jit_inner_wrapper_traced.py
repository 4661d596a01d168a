import jax
import jax.numpy as jnp

@jax.jit
def outer(x):
    for i in range(3):
        x = jax.jit(lambda v: v * 2)(x)
    return x

outer(jnp.ones(3))
