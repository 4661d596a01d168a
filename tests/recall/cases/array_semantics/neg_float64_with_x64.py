"""Script that turns on 64-bit mode before building float64 arrays."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402


def high_precision_sum(values):
    acc = jnp.asarray(values, dtype=jnp.float64)
    return acc.sum()


print(high_precision_sum([0.1, 0.2, 0.3]).dtype)
