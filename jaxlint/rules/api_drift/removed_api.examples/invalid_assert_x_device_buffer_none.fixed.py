import jax
import jax.numpy as jnp

x = jnp.ones(3)
assert x.addressable_data(0) is not None
