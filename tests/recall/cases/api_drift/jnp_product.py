import jax.numpy as jnp

x = jnp.arange(1.0, 5.0)
print(jnp.product(x))  # expect: JAX702
