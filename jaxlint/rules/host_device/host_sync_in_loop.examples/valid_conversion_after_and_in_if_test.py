import jax
import jax.numpy as jnp


@jax.jit
def advance(state):
    return state + 1, state[0] >= 3


def drive(state, pending):
    while True:
        state, finished = advance(state)
        # `bool(finished)` runs only when nothing is pending: `if a and b:` is `if a: if b:`
        if not pending and bool(finished):
            return state
        if pending:
            pending.pop()


drive(jnp.zeros(2, jnp.int32), [1, 2])
