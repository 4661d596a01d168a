import jax
import jax.numpy as jnp
jax.enable_x64(True)
h = jnp.float64(0.1)
