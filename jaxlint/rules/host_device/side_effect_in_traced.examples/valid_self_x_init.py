import jax
import jax.numpy as jnp


class Scaler:
    def __init__(self, factor):
        self.factor = factor
        self.fn = jax.jit(self.apply)

    def apply(self, x):
        return x * self.factor


Scaler(2.0).fn(jnp.ones(3))
