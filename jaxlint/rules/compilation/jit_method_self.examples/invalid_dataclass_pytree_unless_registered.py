import dataclasses
import jax
import jax.numpy as jnp

@dataclasses.dataclass
class Model:
    w: jax.Array

    @jax.jit
    def apply(self, x):
        return self.w * x

Model(jnp.ones(3)).apply(jnp.ones(3))
