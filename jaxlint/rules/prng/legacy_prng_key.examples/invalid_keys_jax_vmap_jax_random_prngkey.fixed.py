import jax
import jax.numpy as jnp

keys = jax.vmap(jax.random.key)(jnp.arange(3))
