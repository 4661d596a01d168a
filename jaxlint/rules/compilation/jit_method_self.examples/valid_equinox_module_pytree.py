import equinox as eqx
import jax

class Linear(eqx.Module):
    w: jax.Array

    @jax.jit
    def __call__(self, x):
        return self.w @ x
