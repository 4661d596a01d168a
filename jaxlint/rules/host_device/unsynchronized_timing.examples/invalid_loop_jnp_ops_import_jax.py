from time import perf_counter
import jax.numpy as jnp

a = jnp.ones((256, 256))
t0 = perf_counter()
for _ in range(10):
    b = jnp.dot(a, a)
t1 = perf_counter()
