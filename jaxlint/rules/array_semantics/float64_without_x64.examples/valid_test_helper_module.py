"""Test data shared by the tests, which enable x64 where they need it."""

import jax.numpy as jnp


def hilbert(n):
    i = jnp.arange(n, dtype=jnp.float64)
    return 1.0 / (i[:, None] + i[None, :] + 1.0)
