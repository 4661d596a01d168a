import jax
import jax.numpy as jnp

class Model:
    def __init__(self, scale):
        self.scale = scale

    def apply(self, x):
        return jax.jit(self._apply)(x)

    def _apply(self, x):
        return self.scale * x

    def set_scale(self, scale):
        self.scale = scale

model = Model(1.0)
model.apply(jnp.ones(3))
model.set_scale(3.0)
print(model.apply(jnp.ones(3)))  # [3. 3. 3.]: a new jit on every call traces again
