import jax.numpy as jnp
y = jnp.clip(jnp.arange(5.0), a_min=1.0, a_max=3.0)
