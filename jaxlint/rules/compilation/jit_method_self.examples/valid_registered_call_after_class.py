import dataclasses
import jax
import jax.numpy as jnp

@dataclasses.dataclass
class Model:
    w: jax.Array

    @jax.jit
    def apply(self, x):
        return self.w * x

jax.tree_util.register_dataclass(Model, data_fields=['w'], meta_fields=[])
Model(jnp.ones(3)).apply(jnp.ones(3))
