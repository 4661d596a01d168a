from jax import jit
import jax


@jit
def f(x):
    jax.debug.print("{}", x)
    return x
