import jax.numpy as jnp
acc = jnp.zeros(3, dtype=jnp.float64)
