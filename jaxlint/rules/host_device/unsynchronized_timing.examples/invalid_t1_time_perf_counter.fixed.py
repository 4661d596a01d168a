import time
import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    return x @ x


x = jnp.ones((64, 64))
t0 = time.perf_counter()
out = f(x)
jax.block_until_ready(out)
t1 = time.perf_counter()
