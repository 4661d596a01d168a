import jax
import jax.numpy as jnp

class Trainer:
    def step(self, w):
        return w * 0.5

    def fit(self, w):
        step_jit = jax.jit(self.step)
        while w.sum() > 1:
            w = step_jit(w)
        return w
