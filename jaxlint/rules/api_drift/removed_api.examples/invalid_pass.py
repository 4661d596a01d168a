import jax
if jax.treedef_is_leaf(td):
    pass
