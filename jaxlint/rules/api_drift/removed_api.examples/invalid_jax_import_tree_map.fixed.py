from jax.tree import map as tree_map
out = tree_map(abs, [1])
again = tree_map(abs, [2])
