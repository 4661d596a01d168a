import jax
import jax.numpy as jnp

@jax.vmap
def f(x):
    mask = jnp.isfinite(x)
    return x.at[mask].set(0.0)

f(jnp.ones((2, 3)))
