import jax

def f(x):
    if hasattr(x, 'shape'):
        return jax.tree_map(abs, x)
