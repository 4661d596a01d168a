import jax
import jax.numpy as jnp

@jax.vmap
def f(x):
    return 1.0 if 0.0 < x < 1.0 else 0.0

f(jnp.ones(3))
