import jax
import jax.numpy as jnp

@jax.jit
def mean64(x):
    return x.astype("float64").mean()

m = mean64(jnp.arange(4.0))
