from functools import partial

import jax

@partial(jax.jit, donate_argnums=0)
def step(state, batch):
    return state

def train(state, batch):
    new_state = step(state, batch)
    print(state.apply_fn)
    return new_state
