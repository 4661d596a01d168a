import jax
import jax.numpy as jnp


def radiation(x, grid=None):
    if grid is None and jnp.any(x <= 0.0):  # host mode only: the traced caller passes grid
        raise ValueError("fraction too small")
    return x * 2.0


@jax.jit
def step(x, grid):
    return radiation(x, grid=grid)


step(jnp.ones(3), jnp.zeros(3))
radiation(jnp.ones(3))
