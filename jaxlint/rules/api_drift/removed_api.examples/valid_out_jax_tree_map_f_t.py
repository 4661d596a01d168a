import jax
out = jax.tree_map(f, t)
