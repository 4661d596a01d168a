import jax.numpy as jnp
x = jnp.ones(3)
x = x.at[0].add(-(2 * x[1]))
