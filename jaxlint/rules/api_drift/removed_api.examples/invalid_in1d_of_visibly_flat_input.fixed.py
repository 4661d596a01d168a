import jax.numpy as jnp

labels = jnp.arange(6).reshape(2, 3)
seen = jnp.isin(jnp.arange(5), jnp.array([1, 3]))
flat = jnp.isin(labels, jnp.array([1, 3])).ravel()
assert seen.shape == (5,) and flat.shape == (6,)
