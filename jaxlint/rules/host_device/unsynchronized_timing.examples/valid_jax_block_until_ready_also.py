import time
import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    return x @ x


x = jnp.ones((64, 64))
t0 = time.time()
out = jax.block_until_ready(f(x))
t1 = time.time()
start = time.monotonic()
for _ in range(3):
    out = f(out)
jax.block_until_ready(out)
elapsed = time.monotonic() - start
