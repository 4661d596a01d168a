import flax.linen as nn

class Block(nn.Module):
    features: int = 8
    use_bias: bool = True

    @nn.compact
    def __call__(self, x, mask=None, deterministic: bool = False, train=True):
        if not deterministic and train:
            x = nn.Dropout(0.1, deterministic=False)(x)
        if mask is not None:
            x = x * mask
        if self.use_bias and self.features > 4 and x.shape[-1] > 2:
            x = nn.Dense(self.features)(x)
        return x
