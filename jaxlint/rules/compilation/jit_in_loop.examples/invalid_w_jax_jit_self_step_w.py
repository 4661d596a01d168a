import jax
import jax.numpy as jnp

class Trainer:
    def step(self, w):
        return w * 0.5

    def fit(self, w):
        while w.sum() > 1:
            w = jax.jit(self.step)(w)
        return w
