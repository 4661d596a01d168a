import jax
import jax.numpy as jnp
from functools import partial

class Sampler:
    def steps(self, x, n):
        for _ in range(n):
            x = x * 0.5
        return x

    @partial(jax.jit, static_argnums=0)
    def run(self, x, n):
        return self.steps(x, n)

Sampler().run(jnp.ones(3), 2)
