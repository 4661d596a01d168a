from typing import NamedTuple

import jax

jax.config.update("jax_debug_key_reuse", True)


class State(NamedTuple):
    params: jax.Array
    rng: jax.Array


def perturb(state):
    noise = jax.random.normal(state.rng, state.params.shape)
    mask = jax.random.bernoulli(state.rng, 0.5, state.params.shape)
    return state.params + noise * mask


perturb(State(jax.numpy.zeros(3), jax.random.key(0)))
