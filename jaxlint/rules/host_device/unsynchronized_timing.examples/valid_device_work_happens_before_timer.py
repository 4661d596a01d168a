import time
import jax.numpy as jnp

x = jnp.ones(3)
y = x * 2
t0 = time.time()
print('starting')
t1 = time.time()
