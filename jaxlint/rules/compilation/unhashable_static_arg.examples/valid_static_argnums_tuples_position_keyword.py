import jax
import jax.numpy as jnp

def f(x, dims):
    return x.reshape(dims)

g = jax.jit(f, static_argnums=(1,))
g(jnp.ones(6), (2, 3))
g(jnp.ones(6), dims=(3, 2))
