import jax.numpy as jnp
x = jnp.arange(6.0).reshape(2, 3)
x = x.at[0, 1:].add(1.0)
x = x.at[:, 0].subtract(2.0)
x = x.at[1].multiply(3.0)
