import jax.numpy as jnp
from jax import tree_leaves  # expect: JAX702

params = {"w": jnp.ones(3)}
n = sum(p.size for p in tree_leaves(params))
