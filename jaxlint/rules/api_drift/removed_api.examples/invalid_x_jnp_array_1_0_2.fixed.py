import jax.numpy as jnp
x = jnp.array([1.0, 2.0], jnp.float32, copy=True)
