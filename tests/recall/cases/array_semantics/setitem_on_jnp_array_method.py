import jax.numpy as jnp

x = jnp.arange(6.0).reshape(2, 3)
y = x.T
y[0, 0] = -1.0  # expect: JAX601
