import jax
mapper = jax.tree.transpose
