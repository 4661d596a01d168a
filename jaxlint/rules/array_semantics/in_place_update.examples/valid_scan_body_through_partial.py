from functools import partial

import jax.numpy as jnp
from jax import lax


def step(scale, carry, x):
    return carry + scale * x, carry


print(lax.scan(partial(step, 2.0), jnp.zeros(()), jnp.arange(3.0)))
