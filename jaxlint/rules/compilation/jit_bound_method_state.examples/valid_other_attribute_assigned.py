import jax
import jax.numpy as jnp

class Trainer:
    def __init__(self, lr):
        self.lr = lr
        self.steps = 0
        self.step = jax.jit(self._step)

    def _step(self, params, grads):
        return params - self.lr * grads

    def run(self, params, grads):
        params = self.step(params, grads)
        self.steps += 1
        return params

print(Trainer(0.1).run(jnp.ones(3), jnp.ones(3)))
