from jax.tree_util import tree_map
out = tree_map(f, t)
