from typing import NamedTuple

import jax
import jax.numpy as jnp
import optax


class State(NamedTuple):
    count: jax.Array


def first_step_skip():
    def init_fn(params):
        return State(count=jnp.zeros([], jnp.int32))

    def update_fn(updates, state, params=None):
        if state.count == jnp.zeros([], jnp.int32):
            updates = jax.tree.map(jnp.zeros_like, updates)
        return updates, State(count=state.count + 1)

    return optax.GradientTransformation(init_fn, update_fn)
