import jax
import jax.numpy as jnp

SMOKE_TEST = False


def fire_step(state):
    return state - 0.1 * state


state = jnp.ones(3)
for i in range(100 if not SMOKE_TEST else 10):
    state = jax.jit(fire_step)(state)
