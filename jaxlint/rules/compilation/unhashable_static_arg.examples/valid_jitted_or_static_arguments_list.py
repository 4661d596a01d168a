import jax
import jax.numpy as jnp

def f(x, n):
    return x * len(n)

f(jnp.ones(3), [1])
jax.jit(f)(jnp.ones(3), [1, 2])
