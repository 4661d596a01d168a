import flax.linen as nn
import jax


class Noisy(nn.Module):
    @nn.compact
    def __call__(self, x):
        return x + jax.random.normal(self.make_rng('noise'), x.shape)
