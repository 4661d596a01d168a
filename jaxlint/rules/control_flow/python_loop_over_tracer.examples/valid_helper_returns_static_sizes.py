import jax
import jax.numpy as jnp


def rows(x):
    return x.shape[0]


def count(x):
    return x.size


def split(x):
    return len(x), x * 2


@jax.jit
def step(x):
    n, doubled = split(x)
    for i in range(n + rows(x) + count(x)):
        doubled = doubled + i
    return doubled


step(jnp.ones((4, 2)))
