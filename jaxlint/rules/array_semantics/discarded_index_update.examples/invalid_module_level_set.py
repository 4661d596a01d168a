import jax.numpy as jnp

result = jnp.zeros(3)
result.at[0].set(5.0)
