import jax
if jax.tree_util.treedef_is_leaf(td):
    pass
