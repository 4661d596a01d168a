from functools import partial

import jax.numpy as jnp
from jax import jit

class Model:
    k = 2

    @partial(jit, static_argnames=('n',))
    def apply(self, x, n):
        return x * n * self.k

Model().apply(jnp.ones(3), 2)
