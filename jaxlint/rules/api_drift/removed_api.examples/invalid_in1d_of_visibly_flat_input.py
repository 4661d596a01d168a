import jax.numpy as jnp

labels = jnp.arange(6).reshape(2, 3)
seen = jnp.in1d(jnp.arange(5), jnp.array([1, 3]))
flat = jnp.in1d(labels, jnp.array([1, 3]))
assert seen.shape == (5,) and flat.shape == (6,)
