import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return w * 0.5


for i in range(500):
    print(jax.jit(step)(jnp.ones(2)) + 1)
