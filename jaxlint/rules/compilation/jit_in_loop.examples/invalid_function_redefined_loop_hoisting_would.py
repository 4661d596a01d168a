import jax
import jax.numpy as jnp

x = jnp.ones(3)
for i in range(3):
    def double(v):
        return v * 2
    x = jax.jit(double)(x)
