import jax
from flax import nnx

class Block(nnx.Module):
    @jax.jit
    def __call__(self, x):
        return x
