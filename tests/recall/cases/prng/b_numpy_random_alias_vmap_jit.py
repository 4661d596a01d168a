import jax
import jax.numpy as jnp
import numpy as host_np


def jitter(point):
    shift = host_np.random.uniform(-0.1, 0.1)  # expect: JAX303
    return point + shift


per_point = jax.vmap(jitter)
per_point_jit = jax.jit(per_point)
per_point_jit(jnp.zeros((5, 2)))
