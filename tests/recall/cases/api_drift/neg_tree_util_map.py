import jax
import jax.numpy as jnp

params = {"w": jnp.ones(3), "b": jnp.zeros(1)}
scaled = jax.tree.map(lambda p: p * 0.5, params)
leaves = jax.tree_util.tree_leaves(params)
