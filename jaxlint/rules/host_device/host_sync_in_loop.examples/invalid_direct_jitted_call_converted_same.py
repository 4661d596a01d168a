import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return w * 0.5


w = jnp.ones(2)
for i in range(500):
    w = step(w)
    print(jax.jit(step)(w) + 1)
