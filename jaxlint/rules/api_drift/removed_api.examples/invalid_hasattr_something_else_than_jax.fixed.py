import jax

def f(x):
    if hasattr(x, 'shape'):
        return jax.tree.map(abs, x)
