import jax.numpy as jnp
import numpy as np


class Buffer:
    def __init__(self, seed, size):
        self.rng = np.random.default_rng(seed)
        self.data = jnp.arange(size)

    def sample(self, n):
        idx = self.rng.integers(0, len(self.data), n)
        noise = self.rng.normal(size=n)
        return self.data[idx] + noise


Buffer(0, 10).sample(4)
