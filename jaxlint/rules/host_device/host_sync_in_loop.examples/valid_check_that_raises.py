import jax
import jax.numpy as jnp


@jax.jit
def accept(state, proposal):
    ok = jnp.all(jnp.isfinite(proposal))
    return state + proposal, ok


def run(state, proposals):
    for proposal in proposals:
        state, ok = accept(state, proposal)
        if not bool(ok):
            raise ValueError("the proposal is not finite")
    return state


run(jnp.zeros(3), [jnp.ones(3)] * 3)
