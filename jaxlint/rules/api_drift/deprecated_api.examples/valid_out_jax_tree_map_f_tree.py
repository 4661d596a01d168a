import jax
out = jax.tree.map(f, tree)
