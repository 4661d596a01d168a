import jax
import jax.numpy as jnp

def g(x):
    return x * 2

def f(x):
    return jax.jit(g)(x)

f(jnp.ones(3))
f(jnp.ones(3))
