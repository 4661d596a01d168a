import jax.numpy as jnp

x = jnp.zeros(3, dtype=jnp.float64)  # expect: JAX603
print(x.dtype)
