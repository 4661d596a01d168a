import jax.numpy as jnp
grid = jnp.zeros((2, 2))
grid[0][1] = 1.0
