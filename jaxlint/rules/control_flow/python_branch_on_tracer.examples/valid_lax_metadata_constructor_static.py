import functools

import jax
import jax.numpy as jnp
from jax import lax


def _parse(dim_numbers):
    return lax.ConvDimensionNumbers(*dim_numbers)


@functools.partial(jax.jit, static_argnums=(1,))
def shift(x, dim_numbers):
    spec = _parse(dim_numbers)
    if spec.rhs_spec[0] > 0:
        return x + spec.rhs_spec[0]
    return x


shift(jnp.ones(3), ((0, 1, 2, 3), (1, 0, 2, 3), (0, 1, 2, 3)))
