import dataclasses
import jax
import jax.numpy as jnp
from functools import partial

@dataclasses.dataclass(frozen=True)
class Scale:
    k: float = 2.0

    @partial(jax.jit, static_argnums=0)
    def apply(self, x):
        return x * self.k

    @partial(jax.jit, static_argnames='self')
    def twice(self, x):
        return x * self.k * 2

Scale().apply(jnp.ones(3))
Scale().twice(jnp.ones(3))
