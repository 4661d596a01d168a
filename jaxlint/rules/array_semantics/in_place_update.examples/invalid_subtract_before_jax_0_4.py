import jax.numpy as jnp
x = jnp.ones(3)
x[0] -= 2 * x[1]
