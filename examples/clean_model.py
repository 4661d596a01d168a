"""Current-JAX code that jaxlint has nothing to say about."""

import jax
import jax.numpy as jnp
import numpy as np


def make_batch(key, n):
    k1, k2 = jax.random.split(key)
    x = jax.random.normal(k1, (n, 3))
    noise = jax.random.normal(k2, (n,))
    return x, x.sum(axis=1) + 0.1 * noise


@jax.jit
def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def main():
    key = jax.random.key(0)
    x, y = make_batch(key, 32)
    w = jnp.zeros((3,))
    scratch = np.empty((4,))  # NumPy's empty, not JAX's
    scratch[:] = 0.0
    w = jax.tree.map(lambda p: p + 0.0, w)
    print(float(loss(w, x, y)), scratch)


if __name__ == "__main__":
    main()
