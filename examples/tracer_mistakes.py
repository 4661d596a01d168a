"""Mistakes inside traced code that JAX reports only at run time (jaxlint's demo input)."""

import time
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def normalize(x):
    if x.sum() > 0:  # Python branch on a tracer
        x = x / x.sum()
    return np.asarray(x)  # host conversion of a tracer


@partial(jax.jit, static_argnames=("n",))
def window(x, n, start):
    print("window of", x)  # prints a tracer once, at trace time
    return x[start : start + n]


def noisy(key, shape):
    a = jax.random.normal(key, shape)
    b = jax.random.normal(key, shape)  # the same key again: b == a
    return a + b


def train(w, xs):
    losses = []
    for x in xs:
        step = jax.jit(lambda w, x: w - 0.1 * x * (w * x).sum())  # rebuilt every iteration
        w = step(w, x)
        losses.append(float((w**2).sum()))  # waits for the device on every step
    start = time.perf_counter()
    y = normalize(xs[0])
    elapsed = time.perf_counter() - start  # measures dispatch, not the computation
    return losses, y, elapsed


if __name__ == "__main__":
    print(noisy(jax.random.key(0), (3,)))
    print(window(jnp.arange(10.0), 3, 2))
