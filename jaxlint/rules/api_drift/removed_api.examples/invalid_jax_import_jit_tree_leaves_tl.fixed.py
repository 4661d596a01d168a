from jax import jit
from jax.tree import leaves as tl
from jax.tree import structure as tree_structure
