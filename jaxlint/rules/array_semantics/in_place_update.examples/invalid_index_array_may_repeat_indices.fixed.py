import jax.numpy as jnp
x = jnp.zeros(4)
idx = jnp.array([0, 0, 1])
x = x.at[idx].add(1.0)
