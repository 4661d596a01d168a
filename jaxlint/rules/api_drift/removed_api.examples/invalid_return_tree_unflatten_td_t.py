def f(t):
    from jax import tree_unflatten
    return tree_unflatten(td, t)
