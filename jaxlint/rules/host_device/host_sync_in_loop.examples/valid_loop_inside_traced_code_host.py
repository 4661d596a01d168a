import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    for i in range(100):
        w = w * 0.5
        print(w.shape)
    return w
