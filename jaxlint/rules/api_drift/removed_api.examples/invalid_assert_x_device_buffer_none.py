import jax
import jax.numpy as jnp

x = jnp.ones(3)
assert x.device_buffer is not None
