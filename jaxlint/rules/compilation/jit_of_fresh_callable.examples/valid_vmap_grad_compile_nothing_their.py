import jax
import jax.numpy as jnp

def f(x):
    y = jax.vmap(lambda v: v * 2)(x)
    return jax.grad(lambda v: (v ** 2).sum())(y)
