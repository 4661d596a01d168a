import flax.linen as nn

class MLP(nn.Module):
    features: int = 8

    @nn.compact
    def __call__(self, x, deterministic: bool = False):
        if x.sum() > 0:
            x = x * 2
        return nn.Dense(self.features)(x)
