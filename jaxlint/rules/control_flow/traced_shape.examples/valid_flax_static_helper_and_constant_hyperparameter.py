import flax.linen as nn
import jax.numpy as jnp


class Blocks(nn.Module):
    block_size: int = 4

    @staticmethod
    def _to_blocks(x, block_size):
        if block_size < 1:
            raise ValueError(f"{block_size=} must be at least 1")
        n = (x.shape[-1] + block_size - 1) // block_size
        x = jnp.pad(x, [(0, 0), (0, n * block_size - x.shape[-1])])
        return jnp.reshape(x, (x.shape[0], n, block_size))

    @nn.compact
    def __call__(self, x):
        return self._to_blocks(x, self.block_size).sum(-1)


class Head(nn.Module):
    @nn.compact
    def __call__(self, x, features):
        return nn.Dense(features)(x) + jnp.arange(features)


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return Head()(Blocks()(x), 3)
