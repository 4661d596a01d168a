import jax.numpy as jnp
q = queue.empty()
full = jnp.full((2,), 1.0)
