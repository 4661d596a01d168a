import jax.numpy as jnp

result = jnp.zeros(3)
result = result.at[0].set(5.0)
