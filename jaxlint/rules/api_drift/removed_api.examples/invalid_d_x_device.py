import jax.numpy as jnp

x = jnp.ones(3)
d = x.device()
