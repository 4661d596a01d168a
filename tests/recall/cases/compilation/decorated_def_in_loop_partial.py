from functools import partial

import jax
import jax.numpy as jnp


def evaluate(params, batches):
    total = 0.0
    for batch in batches:
        @partial(jax.jit, static_argnums=1)  # expect: JAX401
        def metric(p, n):
            return jnp.sum(p[:n] * batch[:n])

        total = total + metric(params, 2)
    return total


print(evaluate(jnp.ones(3), [jnp.ones(3)]))
