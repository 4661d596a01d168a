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
    # adaptive tempering runs until the temperature reaches 1: the `while` test reads
    # it on the host on every iteration, so the loop waits for each step anyway; the
    # schedule's `float` of that same value adds no sync of its own
    state = SamplerState(jnp.asarray(0.0), particles)
    schedule = []
    while state.tempering_param < 1.0:
        state = adaptive_step(state)
        schedule.append(float(state.tempering_param))
    return schedule


run(jnp.ones(3))
