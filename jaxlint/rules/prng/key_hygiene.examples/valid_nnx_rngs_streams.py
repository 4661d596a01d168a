import jax
from flax import nnx


class Layer(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.w = jax.random.normal(rngs.params(), (3, 3))
        self.b = jax.random.normal(rngs.params(), (3,))
