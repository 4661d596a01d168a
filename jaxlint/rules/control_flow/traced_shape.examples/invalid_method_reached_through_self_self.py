import jax
import jax.numpy as jnp

class Resize:
    def flat(self, x, rows):
        return x.reshape(rows, -1)

    @jax.jit
    def __call__(self, x, rows):
        return self.flat(x, rows)
