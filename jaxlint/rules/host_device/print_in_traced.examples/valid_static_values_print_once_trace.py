import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    print(x.shape, x.dtype, x.ndim, len(x))
    print('compiling f')
    return x * 2


f(jnp.ones(3))
