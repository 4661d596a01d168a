import jax
import jax.numpy as jnp


def train_step(w, x):
    return w - 0.1 * x


w = jnp.ones(3)
batches = [jnp.full(3, float(i)) for i in range(4)]
for epoch in range(3):
    # one wrapper per epoch around the same function, reused for every batch
    step = jax.jit(train_step)
    for x in batches:
        w = step(w, x)
