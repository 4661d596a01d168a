import jax
import jax.numpy as jnp

def total(x, n):
    return sum(x * i for i in range(n))

step = jax.jit(total)
step(jnp.ones(3), 4)
