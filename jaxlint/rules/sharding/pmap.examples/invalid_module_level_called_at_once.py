import jax
import jax.numpy as jnp

n = jax.device_count()
y = jax.pmap(lambda x: x * 2)(jnp.arange(n * 2.0).reshape(n, 2))
