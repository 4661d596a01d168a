from functools import partial

import jax
import jax.numpy as jnp


class Model:
    def __init__(self, scale):
        self.scale = scale

    def __hash__(self):
        return hash(self.scale)

    def __eq__(self, other):
        return isinstance(other, Model) and other.scale == self.scale

    @partial(jax.jit, static_argnums=0)
    def apply(self, x):
        return x * self.scale


print(Model(2.0).apply(jnp.ones(2)))
