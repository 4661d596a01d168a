import jax
import jax.numpy as jnp

class Trainer:
    def __init__(self):
        self.params = None
        self.loss = jax.jit(self._loss)

    def initialize(self, params):
        self.params = params

    def _loss(self, x):
        return jnp.sum(self.params * x)

trainer = Trainer()
trainer.initialize(jnp.ones(3))
print(trainer.loss(jnp.ones(3)))  # 3.0: the first call comes after initialize
