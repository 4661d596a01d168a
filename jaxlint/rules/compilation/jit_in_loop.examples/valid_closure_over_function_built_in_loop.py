import jax
import jax.numpy as jnp
import numpy as np


def make_force(k):
    return lambda x: -k * x


x = jnp.ones(3)
for k in np.linspace(0.5, 2.0, 3):
    force = make_force(k)
    # `force` is a new function each time: no argument can carry it
    x = jax.jit(lambda v: v + 0.1 * force(v))(x)
