import jax as j

def f(t):
    return j.tree_leaves(t), j.tree_flatten(t)
