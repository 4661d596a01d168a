import jax
import jax.numpy as jnp

x = jnp.ones(3)
for i in (1, 2, 3):
    for j in range(2):
        x = jax.jit(lambda v: v * i)(x)
