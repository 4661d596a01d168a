import jax, jax.numpy as jnp
y = jax.random.permutation(jax.random.key(0), jnp.arange(6.0).reshape(2, 3), axis=1, independent=True)
