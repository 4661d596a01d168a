import jax
def g(jax):
    return jax.tree_map(f, t)
