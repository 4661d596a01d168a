import jax
leaves = jax.tree_util.tree_leaves(tree)
