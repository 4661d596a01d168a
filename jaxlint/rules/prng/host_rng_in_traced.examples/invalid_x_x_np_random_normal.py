import jax
import numpy as np
from jax import lax


def walk(x0):
    def body(x, _):
        x = x + np.random.normal()
        return x, x

    return lax.scan(body, x0, None, length=10)
