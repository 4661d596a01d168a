import jax
import jax.numpy as jnp
from functools import partial


class Model:
    def __init__(self):
        self.calls = 0

    @partial(jax.jit, static_argnums=0)
    def apply(self, x):
        self.calls += 1
        self.last = x
        return x * 2


m = Model()
for _ in range(3):
    m.apply(jnp.ones(2))
assert m.calls == 1
