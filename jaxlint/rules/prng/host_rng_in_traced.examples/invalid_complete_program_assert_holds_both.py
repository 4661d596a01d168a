import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def f(x):
    return x + np.random.rand()


a = f(jnp.zeros(2))
b = f(jnp.zeros(2))
assert (a == b).all()
