import jax.numpy as jnp
s = 'jnp.empty((3,))'  # jnp.empty(3)
