import jax
import jax.numpy as jnp

@jax.jit
def f(x):
    for i in range(3):
        x = x + i
    for i in range(x.shape[0]):
        x = x.at[i].add(1.0)
    for i in range(len(x)):
        x = x * 2
    return x

f(jnp.ones(3))
