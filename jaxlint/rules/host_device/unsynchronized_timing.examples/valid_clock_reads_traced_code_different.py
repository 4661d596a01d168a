import time
import jax


@jax.jit
def f(x):
    t0 = time.time()
    y = x * 2
    t1 = time.time()
    return y
