import jax.numpy as jnp

x = jnp.arange(3.0)
x.at[5].get(mode="fill", fill_value=0.0)
