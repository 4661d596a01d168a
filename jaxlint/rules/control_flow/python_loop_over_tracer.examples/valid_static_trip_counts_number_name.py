import jax
import jax.numpy as jnp
from functools import partial

@partial(jax.jit, static_argnums=1)
def f(x, n):
    for _ in range(n):
        x = x * 2
    return x

@partial(jax.jit, static_argnames='steps')
def g(x, steps=3):
    return sum(x * i for i in range(steps))

f(jnp.ones(3), 2)
g(jnp.ones(3), steps=4)
