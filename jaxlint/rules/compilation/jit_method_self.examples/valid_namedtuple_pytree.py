import jax
import jax.numpy as jnp
from typing import NamedTuple

class Params(NamedTuple):
    w: jax.Array

    @jax.jit
    def apply(self, x):
        return self.w * x

Params(jnp.ones(3)).apply(jnp.ones(3))
