import jax.numpy as jnp

x = jnp.zeros(3)
total = jnp.sum(x.at[2].set(3.0))
print(x.at[0].max(1.0))
