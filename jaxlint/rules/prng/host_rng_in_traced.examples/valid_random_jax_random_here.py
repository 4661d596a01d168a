import jax
import jax.numpy as jnp
from jax import random


@jax.jit
def f(x, key):
    return x + random.normal(key, x.shape)


f(jnp.zeros(3), random.key(0))
