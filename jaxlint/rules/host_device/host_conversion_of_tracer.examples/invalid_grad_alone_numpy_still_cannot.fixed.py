import jax
import numpy as np


def loss(w):
    return jax.numpy.sin(w) ** 2


g = jax.grad(loss)(1.0)
