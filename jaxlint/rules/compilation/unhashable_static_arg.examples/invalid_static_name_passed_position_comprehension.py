import jax
import jax.numpy as jnp

def f(x, dims):
    return x.reshape(dims)

jax.jit(f, static_argnames='dims')(jnp.ones(6), [d for d in (2, 3)])
