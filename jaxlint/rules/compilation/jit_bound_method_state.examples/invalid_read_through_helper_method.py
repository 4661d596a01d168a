import jax
import jax.numpy as jnp

class Sampler:
    def __init__(self, temperature):
        self.temperature = temperature
        self.sample = jax.jit(self._sample)

    def _sample(self, logits):
        return self._scale(logits)

    def _scale(self, logits):
        return logits / self.temperature

    def set_temperature(self, temperature):
        self.temperature = temperature

sampler = Sampler(1.0)
sampler.sample(jnp.ones(3))
sampler.set_temperature(2.0)
print(sampler.sample(jnp.ones(3)))  # [1. 1. 1.]: the first trace's temperature
