import jax
from flax import nnx


class Noisy(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.w = jax.random.normal(rngs.params(), (3, 3))
        self.b = jax.random.normal(rngs.params(), (3,))
        self.c = jax.random.normal(rngs(), (3,))
