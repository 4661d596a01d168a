import jax
import jax.numpy as jnp

params = {"w": jnp.ones(3)}
replicated = jax.device_put_replicated(params, jax.local_devices())  # expect: JAX505
