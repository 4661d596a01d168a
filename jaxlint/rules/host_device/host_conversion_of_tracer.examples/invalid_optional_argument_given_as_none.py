import jax
import jax.numpy as jnp


def turbulence(x, grid=None):
    if grid is not None:
        return x * grid
    return host_total(x)


def host_total(x):
    return float(jnp.sum(x))


@jax.jit
def step(x):
    return turbulence(x, grid=None)


step(jnp.ones(3))
