from typing import NamedTuple

import jax
import jax.numpy as jnp


class SamplerState(NamedTuple):
    tempering_param: jax.Array
    particles: jax.Array


@jax.jit
def adaptive_step(state):
    particles = state.particles * 0.9
    return SamplerState(jnp.minimum(state.tempering_param + 0.125, 1.0), particles)


@jax.jit
def spread_of(state):
    return jnp.std(state.particles)


def run(particles):
    state = SamplerState(jnp.asarray(0.0), particles)
    spread = []
    while state.tempering_param < 1.0:
        state = adaptive_step(state)
        # the `while` test waits for `adaptive_step`, not for this second computation:
        # without the `float`, it would run while the host goes on
        spread.append(float(spread_of(state)))
    return spread


run(jnp.ones(3))
