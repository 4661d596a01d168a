import jax
import jax.numpy as jnp

@jax.jit(static_argnums=(1,))
def f(x, idx):
    return x[tuple(idx)]

f(jnp.ones(3), jnp.array([0]))
