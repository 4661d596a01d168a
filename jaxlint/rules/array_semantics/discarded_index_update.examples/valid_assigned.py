import jax.numpy as jnp

x = jnp.zeros(3)
x = x.at[0].set(5.0)
y, z = x.at[1].add(1.0), x.at[2].mul(2.0)
