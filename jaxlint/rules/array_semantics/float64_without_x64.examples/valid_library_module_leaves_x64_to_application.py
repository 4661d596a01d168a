"""Numerics helpers: the application that imports them decides whether x64 is on."""

import jax
import jax.numpy as jnp


def pairwise_sq_dists(points):
    p = jnp.asarray(points, dtype=jnp.float64)
    diff = p[:, None, :] - p[None, :, :]
    return (diff**2).sum(-1)


@jax.jit
def total(xs):
    return xs.astype(jnp.float64).sum()
