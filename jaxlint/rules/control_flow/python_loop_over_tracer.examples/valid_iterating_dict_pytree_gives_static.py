import jax
import jax.numpy as jnp

@jax.jit
def f(params, x):
    for k in params:
        x = x + params[k]
    for k, v in params.items():
        x = x * v
    return x

f({'a': jnp.ones(3)}, jnp.ones(3))
