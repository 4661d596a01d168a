import time

import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x):
    return w - 0.01 * x.T @ (x @ w)


w = jnp.ones(3)
x = jnp.ones((8, 3))
for epoch in range(3):
    start = time.perf_counter()
    for _ in range(10):
        w = train_step(w, x)
    w.block_until_ready()
    elapsed = time.perf_counter() - start
    print(f"epoch {epoch}: {elapsed:.3f}s")
