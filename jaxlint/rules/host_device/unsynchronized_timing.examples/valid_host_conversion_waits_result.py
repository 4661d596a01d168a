import time
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def f(x):
    return x * 2


x = jnp.ones(3)
t0 = time.time()
loss = float(f(x).sum())
t1 = time.time()
t2 = time.time()
host = np.asarray(f(x))
t3 = time.time()
t4 = time.time()
y = f(x)
print(y)
t5 = time.time()
