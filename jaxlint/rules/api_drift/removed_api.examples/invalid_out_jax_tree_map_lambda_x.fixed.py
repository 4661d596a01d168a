import jax
out = jax.tree.map(lambda x: x + 1, [1, 2])
