import jax
import jax.numpy as jnp
from functools import partial


@partial(jax.jit, static_argnames=('n',))
def scale(x, n):
    return x * float(x) * n


scale(jnp.float32(2.0), n=3)
