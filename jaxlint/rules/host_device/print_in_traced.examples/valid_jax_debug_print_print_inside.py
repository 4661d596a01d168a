import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    jax.debug.print('x = {}', x)
    jax.debug.callback(lambda v: print('host', v), x)
    return x


f(jnp.ones(3))
