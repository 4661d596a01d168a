import jax
import jax.numpy as jnp

def train_step(w, x):
    return w - 0.1 * x

w = jnp.ones(3)
for i in range(1000):
    step = jax.jit(train_step)
    w = step(w, jnp.full(3, i))
