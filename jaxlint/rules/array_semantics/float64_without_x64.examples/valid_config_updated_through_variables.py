import jax
import jax.numpy as jnp
for name, value in [('jax_enable_x64', True)]:
    jax.config.update(name, value)
x = jnp.zeros(3, jnp.float64)
