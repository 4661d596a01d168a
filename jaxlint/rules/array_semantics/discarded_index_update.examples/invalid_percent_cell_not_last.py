# %%
import jax.numpy as jnp

result = jnp.ones(3)
result.at[0].multiply(4.0)
total = result.sum()

# %%
print(total)
