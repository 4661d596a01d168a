import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def grad_norm_ratio(g, w):
    return np.sqrt(np.sum(g * g)) / (jnp.linalg.norm(w) + 1e-8)  # expect: JAX101


grad_norm_ratio(jnp.ones(3), jnp.ones(3))
