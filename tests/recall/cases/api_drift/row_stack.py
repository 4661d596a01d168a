import jax.numpy as jnp

m = jnp.row_stack([jnp.ones(2), jnp.zeros(2)])  # expect: JAX702
