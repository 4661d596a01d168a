import jax.numpy as jnp

mask = jnp.in1d(jnp.arange(5), jnp.array([1, 3]))  # expect: JAX702
