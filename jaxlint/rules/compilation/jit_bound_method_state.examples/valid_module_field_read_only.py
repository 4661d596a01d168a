import jax
import jax.numpy as jnp
from flax import nnx


class Policy:
    def __init__(self):
        self.model = nnx.Linear(2, 1, rngs=nnx.Rngs(0))
        self.pad = jax.jit(self._pad)

    def _pad(self, obs):
        return jnp.pad(obs, (0, self.model.in_features))


print(Policy().pad(jnp.ones(2)))  # reads a Python int of the module: no array compiled in
