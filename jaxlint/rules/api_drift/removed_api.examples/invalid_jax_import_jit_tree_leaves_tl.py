from jax import jit, tree_leaves as tl, tree_structure
