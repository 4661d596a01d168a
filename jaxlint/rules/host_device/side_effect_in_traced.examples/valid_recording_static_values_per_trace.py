import jax
import jax.numpy as jnp

TRACED_SHAPES = []


@jax.jit
def f(x):
    TRACED_SHAPES.append(x.shape)
    return x + 1


f(jnp.ones(2))
f(jnp.ones(2))
assert TRACED_SHAPES == [(2,)]
