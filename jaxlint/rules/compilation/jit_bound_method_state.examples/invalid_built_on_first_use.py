import jax
import jax.numpy as jnp

class Model:
    def __init__(self, scale):
        self.scale = scale
        self._apply_fn = None

    def apply(self, x):
        if self._apply_fn is None:
            self._apply_fn = jax.jit(self._apply)
        return self._apply_fn(x)

    def _apply(self, x):
        return self.scale * x

    def set_scale(self, scale):
        self.scale = scale

model = Model(1.0)
model.apply(jnp.ones(3))
model.set_scale(3.0)
print(model.apply(jnp.ones(3)))  # [1. 1. 1.]: the first trace's scale
