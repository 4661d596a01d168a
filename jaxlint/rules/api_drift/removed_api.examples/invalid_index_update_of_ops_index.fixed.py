import jax
import jax.numpy as jnp

x = jnp.zeros((4, 3))
# rows 1 and 2
y = x.at[1:3, ...].set(1.0)
z = y.at[0].add(2.0)
assert float(z.sum()) == 12.0
