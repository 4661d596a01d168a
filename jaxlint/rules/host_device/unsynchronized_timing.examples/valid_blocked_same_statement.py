import time
import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    return x * 2


x = jnp.ones(3)
t0 = time.perf_counter()
out = f(x).block_until_ready()
dt = time.perf_counter() - t0
