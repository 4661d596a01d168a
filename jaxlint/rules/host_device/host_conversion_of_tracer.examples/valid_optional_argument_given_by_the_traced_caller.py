import jax
import jax.numpy as jnp


def turbulence(x, grid=None):
    if grid is not None:
        return x * grid
    return host_total(x)  # host mode only: the traced caller passes grid


def host_total(x):
    return float(jnp.sum(x))


@jax.jit
def step(x, grid):
    return turbulence(x, grid=grid)


step(jnp.ones(3), jnp.ones(3))
turbulence(jnp.ones(3))
