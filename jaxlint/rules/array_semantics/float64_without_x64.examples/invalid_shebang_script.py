#!/usr/bin/env python3
"""Prints the condition number of a Hilbert matrix."""
import jax.numpy as jnp


def hilbert(n):
    i = jnp.arange(n, dtype="float64")
    return 1.0 / (i[:, None] + i[None, :] + 1.0)


h = hilbert(8)
print(jnp.linalg.cond(h))
