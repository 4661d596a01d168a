import jax
import jax.numpy as jnp
from jax.tree_util import tree_leaves


class Forest:
    def tree_map(self, f, x):
        return f(x)


tree = Forest()
params = {"w": jnp.ones(2), "b": jnp.zeros(2)}
doubled = jax.tree.map(lambda p: p * 2, params)
same = jax.tree_util.tree_map(lambda p: p * 2, params)
leaves = jax.tree.leaves(doubled) + tree_leaves(same)
one = tree.tree_map(lambda p: p + 1, 1)
