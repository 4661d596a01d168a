import jax
import jax.numpy as jnp

step = 0


@jax.jit
def update(w, g):
    global step
    step += 1
    lr = 0.1 / step
    return w - lr * g


w = jnp.ones(2)
for _ in range(3):
    w = update(w, jnp.ones(2))
assert float(w[0]) == 1.0 - 3 * 0.1  # lr stayed 0.1: step was 1 at trace time
