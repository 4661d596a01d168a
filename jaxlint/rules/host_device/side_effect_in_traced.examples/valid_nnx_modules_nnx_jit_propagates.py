from flax import nnx
import jax.numpy as jnp


class Counter(nnx.Module):
    def __init__(self):
        self.count = nnx.Variable(jnp.array(0))

    def __call__(self, x):
        self.count.value += 1
        self.last = x
        return x


@nnx.jit
def run(model, x):
    return model(x)
