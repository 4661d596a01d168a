from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class SamplerState(NamedTuple):
    tempering_param: jax.Array
    particles: jax.Array


@jax.jit
def adaptive_step(state):
    particles = state.particles * 0.9
    return SamplerState(jnp.minimum(state.tempering_param + 0.125, 1.0), particles)


def run(particles):
    # adaptive tempering runs until the temperature reaches 1: the `while` test takes
    # the truth value of a device array on every iteration, so the loop waits for each
    # step, but it needs that answer to go on: the wait is the loop's own logic, not a
    # copy to keep on device. The schedule's `float` of that value, and the copy of the
    # same step's particles, add no sync of their own
    state = SamplerState(jnp.asarray(0.0), particles)
    schedule, history = [], []
    while state.tempering_param < 1.0:
        state = adaptive_step(state)
        schedule.append(float(state.tempering_param))
        history.append(np.asarray(state.particles))
    return schedule, history


run(jnp.ones(3))
