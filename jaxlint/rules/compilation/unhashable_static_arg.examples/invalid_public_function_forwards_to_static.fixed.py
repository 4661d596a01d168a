from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def _grid(scale, limits):
    return jnp.linspace(*limits, num=5) * scale


def grid(scale, limits):
    return _grid(scale, limits)


grid(2.0, (-1, 1))
