import optax
out = optax.tree_map(f, t)  # not jax
