import jax
import jax.numpy as jnp

class Model:
    def __init__(self, w):
        self.w = w

    @jax.jit
    def apply(self, x):
        return self.w * x

Model(jnp.ones(3)).apply(jnp.ones(3))
