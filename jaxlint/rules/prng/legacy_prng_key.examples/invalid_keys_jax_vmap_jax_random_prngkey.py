import jax
import jax.numpy as jnp

keys = jax.vmap(jax.random.PRNGKey)(jnp.arange(3))
