import jax
import jax.numpy as jnp

def f(x):
    return x * 2

for i in range(3):
    y = jax.vmap(f)(jnp.ones((2, 3)))
