import jax
out = jax.tree.map(f, t)
