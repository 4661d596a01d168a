import jax
from packaging import version

if version.parse(jax.__version__) < version.parse("0.4.0"):
    leaves = jax.tree_leaves([1, 2])
elif hasattr(jax, "tree_leaves"):
    leaves = jax.tree_leaves([1, 2])
else:
    leaves = jax.tree_util.tree_leaves([1, 2])
    params = jax.tree.map(abs, [-1])
