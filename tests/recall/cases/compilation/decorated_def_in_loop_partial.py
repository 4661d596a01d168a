import functools

import jax
import jax.numpy as jnp


def fit(w, xs, epochs):
    epoch = 0
    while epoch < epochs:
        @functools.partial(jax.jit, donate_argnums=0)  # expect: JAX401
        def sgd(w, xs):
            return w - 0.1 * jnp.mean(xs, axis=0)

        w = sgd(w, xs)
        epoch += 1
    return w


fit(jnp.zeros(3), jnp.ones((4, 3)), 5)
