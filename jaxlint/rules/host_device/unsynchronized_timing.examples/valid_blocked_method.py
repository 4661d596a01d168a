import time
import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    return x @ x


x = jnp.ones((64, 64))
t0 = time.perf_counter()
out = f(x)
out.block_until_ready()
t1 = time.perf_counter()
