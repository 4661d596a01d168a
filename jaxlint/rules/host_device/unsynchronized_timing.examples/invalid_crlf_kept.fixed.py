import time
import jax

f = jax.jit(g)
t0 = time.time_ns()
y = f(x)
jax.block_until_ready(y)
t1 = time.time_ns()
