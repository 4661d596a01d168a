import jax
import jax.numpy as jnp

@jax.jit
def support(x):
    idx = jnp.nonzero(x)
    u = jnp.unique(x)
    w = jnp.where(x > 0)
    return idx, u, w

support(jnp.ones(3))
