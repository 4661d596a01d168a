import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    jax.debug.print("x = {}", x)
    return x + 1


print(step(jnp.ones(2)))
