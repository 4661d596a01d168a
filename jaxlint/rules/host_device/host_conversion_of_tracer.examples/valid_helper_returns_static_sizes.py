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
    return doubled.reshape(int(rows(x)), -1) * float(count(x)) + int(n)


step(jnp.ones((4, 2)))
