import time
import jax

f = jax.jit(g)
t0 = time.time_ns()
y = f(x)
t1 = time.time_ns()
