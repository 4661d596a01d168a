import jax
import jax.numpy as jnp

jax.experimental.enable_x64()  # expect: JAX702
x = jnp.ones(2)
