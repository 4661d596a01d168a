import jax

if jax.__version_info__ < (0, 4, 26):
    out = jax.tree_map(abs, [-1, 2])
else:
    out = jax.tree.map(abs, [-1, 2])
