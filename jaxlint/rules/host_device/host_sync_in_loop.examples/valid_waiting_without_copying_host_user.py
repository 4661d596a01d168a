import jax
import jax.numpy as jnp


@jax.jit
def step(w, x):
    return w - 0.1 * x


w = jnp.ones(3)
for i in range(100):
    w = step(w, jnp.ones(3))
    jax.block_until_ready(w)
