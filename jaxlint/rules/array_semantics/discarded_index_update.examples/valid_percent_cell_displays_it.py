# %%
import jax.numpy as jnp

x = jnp.zeros(3)
x.at[0].set(5.0)

# %%
y = x + 1
