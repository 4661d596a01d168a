import jax
mapper = jax.tree_transpose
