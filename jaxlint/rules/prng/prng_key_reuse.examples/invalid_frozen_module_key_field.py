import dataclasses

import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


@dataclasses.dataclass(frozen=True)
class Dropout:
    rate: float
    key: jax.Array

    def __call__(self, x):
        keep = jax.random.bernoulli(self.key, 1.0 - self.rate, x.shape)
        return jnp.where(keep, x / (1.0 - self.rate), 0.0)


layer = Dropout(0.5, jax.random.key(0))
layer(jnp.ones(4))
layer(jnp.ones(4))
