import jax

# Python compares the strings: "0.12.0" > "0.4.10" is False, so this branch never runs
if jax.__version__ > "0.4.10":
    out = jax.tree_map(abs, [-1, 2])
