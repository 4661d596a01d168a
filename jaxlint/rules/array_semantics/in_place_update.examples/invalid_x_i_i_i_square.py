import jax.numpy as jnp

x = jnp.zeros(5)
for i in range(5):
    x[i] = i * i  # square
