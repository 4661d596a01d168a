import jax
import jax.numpy as jnp

@jax.jit
def f(x):
    # pick a branch
    if x.sum() > 0:
        y = x
    else:
        y = jnp.zeros_like(x)
    return y

f(jnp.ones(3))
