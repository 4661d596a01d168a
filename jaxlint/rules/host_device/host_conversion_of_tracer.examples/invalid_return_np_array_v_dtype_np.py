import jax
import jax.numpy as jnp
import numpy as np


def to_host(v):
    return np.array(v, dtype=np.float32)


@jax.jit
def step(x):
    return to_host(x) + 1


step(jnp.ones(2))
