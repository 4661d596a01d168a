import jax.numpy as jnp
lo = jnp.NINF ** 2
