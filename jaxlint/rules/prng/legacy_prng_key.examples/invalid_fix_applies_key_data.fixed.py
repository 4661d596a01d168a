import io

import jax
import numpy as np


def draw(k):
    return jax.random.normal(k, (3,))


key = jax.random.key(0)
keys = jax.random.split(key, 4)
x = draw(keys[0])
np.save(io.BytesIO(), jax.random.key_data(keys[1]))
