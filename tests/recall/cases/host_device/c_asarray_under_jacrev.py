import jax
import jax.numpy as jnp
import numpy as np


def residuals(theta):
    host = np.asarray(theta)  # expect: JAX101
    return jnp.array([host[0] ** 2 - 1.0, host[1] - 2.0])


jax.jacrev(residuals)(jnp.array([1.0, 2.0]))
