import jax
import jax.numpy as jnp
import numpy.random as npr


@jax.jit
def step(w, x):
    return w - 0.01 * x.T @ (x @ w)


w = jnp.ones(3)
for _ in range(10):
    x = jnp.asarray(npr.normal(size=(8, 3)))
    w = step(w, x)
