import jax
import jax.numpy as jnp
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(4, 4, rngs=rngs)

    def __call__(self, x):
        return self.linear(x)


class Sampler:
    def __init__(self, model: MLP):
        self.model = model
        self.run = jax.jit(self._run)

    def _run(self, x):
        def body(i, h):
            return self.model(h)

        return jax.lax.fori_loop(0, 4, body, x)
