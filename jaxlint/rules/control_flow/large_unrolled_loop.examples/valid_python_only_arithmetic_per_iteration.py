import jax
import jax.numpy as jnp

@jax.jit
def f(x):
    table = [i * i for i in range(1000)]
    total = 0
    for i in range(500):
        total += i
    return x + total + len(table)

f(jnp.ones(3))
