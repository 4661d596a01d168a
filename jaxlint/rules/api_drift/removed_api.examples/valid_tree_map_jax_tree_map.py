import jax
if jax.__version_info__ < (0, 4, 26):
    tree_map = jax.tree_map
else:
    tree_map = jax.tree.map
