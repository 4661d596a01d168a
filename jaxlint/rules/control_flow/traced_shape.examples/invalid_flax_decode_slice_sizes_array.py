import flax.linen as nn
import jax.numpy as jnp
from jax import lax


class AddPositionEmbs(nn.Module):
    max_len: int = 512
    decode: bool = False

    @nn.compact
    def __call__(self, inputs):
        pos_embedding = self.param(
            "pos_embedding", nn.initializers.normal(0.02), (1, self.max_len, inputs.shape[-1])
        )
        if self.decode:
            index = self.variable("cache", "index", lambda: jnp.array(0, jnp.uint32))
            i = index.value
            index.value = i + 1
            _, _, df = pos_embedding.shape
            pe = lax.dynamic_slice(pos_embedding, jnp.array((0, i, 0)), jnp.array((1, 1, df)))
            return inputs + pe
        return inputs + pos_embedding[:, : inputs.shape[1], :]
