import jax.numpy as jnp
x = jnp.empty((3,))
