import jax
out = jax.tree_map(lambda x: x + 1, [1, 2])
