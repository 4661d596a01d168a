import jax
import jax.numpy as jnp


@jax.jit
def f(x, y):
    jax.debug.print("{} {} {{b}} {!r}", "{a}", x, y)
    return x


f(jnp.ones(2), jnp.zeros(2))
