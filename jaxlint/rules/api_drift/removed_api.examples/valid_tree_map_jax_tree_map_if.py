import jax
tree_map = jax.tree.map if hasattr(jax, 'tree') else jax.tree_map
