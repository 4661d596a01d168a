import jax
import jax.numpy as jnp

@jax.jit
def f(params, x):
    if params:
        x = x + params['b']
    layers = [x, x]
    if not layers:
        return x
    return x

f({'b': jnp.ones(3)}, jnp.ones(3))
