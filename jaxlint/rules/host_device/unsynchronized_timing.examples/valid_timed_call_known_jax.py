import time
import jax


@jax.jit
def f(x):
    return x * 2


def bench(x):
    out = f(x)
    t0 = time.perf_counter()
    run_epoch()
    t1 = time.perf_counter()
    return t1 - t0
