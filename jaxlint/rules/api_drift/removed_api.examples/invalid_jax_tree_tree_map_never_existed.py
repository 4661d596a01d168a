import jax
import jax.numpy as jnp

params = {"w": jnp.ones(2)}
doubled = jax.tree.tree_map(lambda p: p * 2, params)
