import flax.linen as nn
import jax


class MLP(nn.Module):
    features: int

    def setup(self):
        self.dense = nn.Dense(self.features)

    @jax.jit
    def __call__(self, x):
        self.y = x
        return self.dense(x)
