import jax
import jax.numpy as jnp


class Model:
    def __init__(self, w):
        self.w = w

    @jax.jit  # expect: JAX403
    def apply(self, x):
        return x @ self.w


print(Model(jnp.ones((2, 2))).apply(jnp.ones(2)))
