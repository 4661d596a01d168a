import jax
import jax.numpy as jnp

def cast(tree):
    return jax.tree.map(lambda a: a.astype(jnp.float64), tree)
