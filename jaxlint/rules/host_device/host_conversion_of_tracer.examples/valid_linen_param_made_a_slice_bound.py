import flax.linen as nn
import jax
import jax.numpy as jnp


class Mask(nn.Module):
    def __call__(self, x, mask_ratio):
        length = x.shape[1]
        # a slice bound must be a Python int: `mask_ratio` is a hyperparameter here
        keep_len = int(length * (1 - mask_ratio))
        return x[:, :keep_len]


x = jnp.ones((2, 8, 3))
print(Mask().apply({}, x, 0.5).shape)
print(jax.jit(lambda v: Mask().apply({}, v, 0.25))(x).shape)
