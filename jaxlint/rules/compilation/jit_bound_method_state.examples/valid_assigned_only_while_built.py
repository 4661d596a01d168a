import jax
import jax.numpy as jnp

class Model:
    def __init__(self, scale):
        self._build(scale)
        self.apply = jax.jit(self._apply)

    def _build(self, scale):
        self.weights = jnp.full(3, scale)

    def _apply(self, x):
        return self.weights * x

print(Model(2.0).apply(jnp.ones(3)))
