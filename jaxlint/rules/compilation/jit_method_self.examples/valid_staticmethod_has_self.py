import jax
import jax.numpy as jnp

class Ops:
    @staticmethod
    @jax.jit
    def double(x):
        return x * 2

Ops.double(jnp.ones(3))
