import jax
import jax.numpy as jnp

@jax.jit
def f(x):
    return x * 2

n = int(f(jnp.ones(())))
total = 0.0
for i in range(n):
    total += i
while total > 1:
    total = total / 2
