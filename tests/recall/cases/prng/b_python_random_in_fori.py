import random

import jax
import jax.numpy as jnp


def body(i, x):
    return x + random.gauss(0.0, 1.0)  # expect: JAX303


jax.lax.fori_loop(0, 10, body, jnp.zeros(3))
