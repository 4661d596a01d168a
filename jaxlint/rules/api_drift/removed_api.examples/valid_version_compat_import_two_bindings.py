try:
    from jax import tree_map
except ImportError:
    from jax.tree_util import tree_map
