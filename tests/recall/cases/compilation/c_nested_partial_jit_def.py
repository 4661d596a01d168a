import functools

import jax
import jax.numpy as jnp


def evaluate(params, inputs):
    @functools.partial(jax.jit, static_argnums=1)  # expect: JAX402
    def forward(p, depth):
        h = inputs
        for _ in range(depth):
            h = jnp.tanh(h @ p)
        return h

    return float(forward(params, 3).sum())


evaluate(jnp.eye(2), jnp.ones((4, 2)))
