import jax
import jax.numpy as jnp
from functools import partial

@partial(jax.jit, static_argnames=('training',))
def f(x, training):
    if training:
        x = x * 0.5
    return x

g = jax.jit(lambda x, n: x * 2 if n > 1 else x, static_argnums=1)
f(jnp.ones(3), True)
g(jnp.ones(3), 2)
