import os
import pickle
import tempfile

import flax.linen as nn
import jax
import jax.numpy as jnp

PATH = os.path.join(tempfile.mkdtemp(), "weights.pickle")
with open(PATH, "wb") as f:
    pickle.dump({"scale": 2.0}, f)


class Scaled(nn.Module):
    def setup(self):
        with open(PATH, "rb") as f:  # pretrained constants: read once, at trace time
            self.weights = pickle.load(f)

    def __call__(self, x):
        return x * self.weights["scale"]


print(jax.jit(lambda x: Scaled().apply({}, x))(jnp.ones(3)))
