import jax.numpy as jnp

x = jnp.ones(3)
print(x.device_buffer.device())  # the old buffer had a device() method
