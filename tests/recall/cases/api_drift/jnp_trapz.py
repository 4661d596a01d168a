import jax.numpy as jnp

ys = jnp.linspace(0.0, 1.0, 11)
area = jnp.trapz(ys, dx=0.1)  # expect: JAX702
