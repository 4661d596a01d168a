import jax
import jax.numpy as jnp

class Model:
    def __init__(self):
        self._apply = jax.jit(lambda x: x * 2)

    def __call__(self, x):
        return self._apply(x)

m = Model()
m(jnp.ones(3))
m(jnp.ones(3))
