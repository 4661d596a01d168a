import time
import jax


@jax.jit
def warm(x):
    return x + 1


def go(x):
    t0 = time.monotonic()
    warm(x)
    return time.monotonic() - t0
