import io

import jax
import numpy as np


def save_key(buffer, k):
    np.save(buffer, k)


key = jax.random.PRNGKey(0)
key, sub = jax.random.split(key)
save_key(io.BytesIO(), key)
