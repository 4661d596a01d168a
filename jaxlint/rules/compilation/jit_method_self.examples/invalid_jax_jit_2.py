import jax
import jax.numpy as jnp

class Factory:
    @classmethod
    @jax.jit
    def make(cls, x):
        return x * 2

Factory.make(jnp.ones(3))
