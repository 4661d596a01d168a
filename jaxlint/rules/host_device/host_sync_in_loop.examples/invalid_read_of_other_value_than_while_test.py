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


def run(particles):
    state = SamplerState(jnp.asarray(0.0), particles)
    spread = []
    while state.tempering_param < 1.0:
        state = adaptive_step(state)
        # the `while` test needs the temperature, not the particles: this copy of them
        # is a transfer of its own on every step
        spread.append(float(jnp.std(state.particles)))
    return spread


run(jnp.ones(3))
