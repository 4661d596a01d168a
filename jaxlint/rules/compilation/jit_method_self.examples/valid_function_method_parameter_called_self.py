import jax
import jax.numpy as jnp

@jax.jit
def apply(self, x):
    return self * x

apply(jnp.ones(3), jnp.ones(3))
