import jax.numpy as jnp

x = jnp.zeros(5)
for i in range(5):
    x = x.at[i].set(i * i)  # square
