import jax.numpy as jnp
lo = (-jnp.inf) ** 2
