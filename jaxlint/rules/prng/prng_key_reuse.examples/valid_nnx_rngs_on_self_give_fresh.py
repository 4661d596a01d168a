import jax
from flax import nnx


class Noise(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.rngs = rngs

    def __call__(self, x):
        a = jax.random.normal(self.rngs.noise(), x.shape)
        b = jax.random.normal(self.rngs.noise(), x.shape)
        return x + a + b
