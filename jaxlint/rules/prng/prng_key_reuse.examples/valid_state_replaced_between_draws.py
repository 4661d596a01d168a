from typing import NamedTuple

import jax

jax.config.update("jax_debug_key_reuse", True)


class State(NamedTuple):
    params: jax.Array
    rng: jax.Array


def perturb(state):
    rng, sub = jax.random.split(state.rng)
    noise = jax.random.normal(sub, state.params.shape)
    state = state._replace(rng=rng)
    rng, sub = jax.random.split(state.rng)
    mask = jax.random.bernoulli(sub, 0.5, state.params.shape)
    return state._replace(params=state.params + noise * mask, rng=rng)


state = State(jax.numpy.zeros(3), jax.random.key(0))
state = perturb(perturb(state))
