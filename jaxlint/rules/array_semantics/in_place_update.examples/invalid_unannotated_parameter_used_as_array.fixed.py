import jax
import jax.numpy as jnp

@jax.jit
def boost(x, v):
    x = x.at[0].add(v)
    return jnp.sqrt(x)

boost(jnp.ones(3), 2.0)
