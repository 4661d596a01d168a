import jax.numpy as jnp
x = jnp.arange(6.0).reshape(2, 3)
x[0, 1:] += 1.0
x[:, 0] -= 2.0
x[1] *= 3.0
