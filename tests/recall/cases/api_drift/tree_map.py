import jax
import jax.numpy as jnp

params = {"w": jnp.ones(3), "b": jnp.zeros(1)}
scaled = jax.tree_map(lambda p: p * 0.5, params)  # expect: JAX702
