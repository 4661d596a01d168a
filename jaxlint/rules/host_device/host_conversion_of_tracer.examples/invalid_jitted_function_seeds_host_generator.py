import jax
import numpy as np


@jax.jit
def mask(key):
    seed = np.asarray(jax.random.randint(key, (2,), 0, 2**31 - 1), dtype=np.uint32)
    rng = np.random.default_rng(seed)
    return rng.permutation(16)


mask(jax.random.key(0))
