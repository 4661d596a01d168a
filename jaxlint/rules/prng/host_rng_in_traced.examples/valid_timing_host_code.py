import jax
import time


@jax.jit
def f(x):
    return x * 2


start = time.time()
jax.block_until_ready(f(1.0))
elapsed = time.time() - start
