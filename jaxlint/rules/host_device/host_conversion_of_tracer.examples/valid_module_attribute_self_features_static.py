import jax
from flax import nnx
import numpy as np


class Model(nnx.Module):
    def __init__(self, features: int, rngs: nnx.Rngs):
        self.features = features
        self.linear = nnx.Linear(features, features, rngs=rngs)

    def __call__(self, x):
        return self.linear(x) / np.sqrt(self.features)


@nnx.jit
def forward(model, x):
    return model(x)
