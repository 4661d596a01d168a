import time

import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x):
    return w - 0.01 * x.T @ (x @ w)


def run_epoch(w, batches):
    for x in batches:
        w = train_step(w, x)
    return w


w = jnp.ones(3)
batches = [jnp.ones((8, 3))] * 10
for epoch in range(3):
    start = time.perf_counter()
    w = run_epoch(w, batches)
    elapsed = time.perf_counter() - start  # expect: JAX105
    print(f"epoch {epoch}: {elapsed:.3f}s")
