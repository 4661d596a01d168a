import jax
import numpy as np

RNG = np.random.default_rng(0)


@jax.jit
def jitter(x):
    return x + RNG.normal(size=x.shape)
