import jax.numpy as jnp

x = jnp.arange(1.0, 5.0)
print(jnp.prod(x), jnp.vstack([x, x]), jnp.isin(x, x))
