import jax
import jax.numpy as jnp
DTYPE = jnp.float64 if jax.config.jax_enable_x64 else jnp.float32
x = jnp.zeros(3, dtype=DTYPE)
y = jnp.zeros(3, jnp.float64) if jax.config.x64_enabled else jnp.zeros(3)
