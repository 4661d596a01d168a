import jax
import jax.numpy as jnp

normalize = jax.jit(lambda v: v / v.sum())

def f(x):
    return normalize(x)

f(jnp.ones(3))
