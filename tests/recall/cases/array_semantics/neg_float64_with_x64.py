import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp

x = jnp.zeros(3, dtype=jnp.float64)
print(x.dtype)
