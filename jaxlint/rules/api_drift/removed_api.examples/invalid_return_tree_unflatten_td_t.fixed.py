def f(t):
    from jax.tree import unflatten as tree_unflatten
    return tree_unflatten(td, t)
