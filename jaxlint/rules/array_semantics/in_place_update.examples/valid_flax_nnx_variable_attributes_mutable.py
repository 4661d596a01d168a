from flax import nnx
import jax.numpy as jnp

class Counter(nnx.Module):
    def __init__(self):
        self.count = nnx.Variable(jnp.zeros(()))

@nnx.jit
def bump(m: Counter):
    m.count[...] += 1
