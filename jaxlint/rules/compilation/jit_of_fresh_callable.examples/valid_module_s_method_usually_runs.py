import haiku as hk
import jax

class Add(hk.Module):
    def __call__(self, a, b):
        return jax.jit(lambda x, y: x + y)(a, b)
