import jax
import jax.numpy as jnp

x = jnp.ones(3)
for i in range(3):
    for j in range(2):
        # doubles
        double = jax.jit(lambda v: v * 2)
        x = double(x) + i + j
