import jax
import jax.numpy as jnp

for i in jax.jit(lambda: jnp.arange(3))():
    print(i)
