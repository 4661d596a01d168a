import jax.numpy as jnp

x = jnp.ones(3)
print(x.addressable_data(0).device)  # the old buffer had a device() method
