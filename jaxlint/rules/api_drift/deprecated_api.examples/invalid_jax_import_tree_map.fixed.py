from jax.tree import map as tree_map
out = tree_map(f, t)
again = tree_map(g, t)
