import jax as j

def f(t):
    return j.tree.leaves(t), j.tree.flatten(t)
