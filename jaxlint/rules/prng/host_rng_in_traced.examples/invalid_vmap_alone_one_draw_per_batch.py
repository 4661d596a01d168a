import jax
import jax.numpy as jnp
import numpy as np


def jitter(x):
    return x + np.random.normal()


out = jax.vmap(jitter)(jnp.zeros(4))
assert bool(jnp.all(out == out[0]))  # one draw shared by the whole batch
