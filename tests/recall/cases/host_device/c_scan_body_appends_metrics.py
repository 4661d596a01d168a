import jax.numpy as jnp
from jax import lax

history = []


def body(state, x):
    state = 0.9 * state + 0.1 * x
    history.append(state)  # expect: JAX104
    return state, state


final, trace = lax.scan(body, jnp.zeros(()), jnp.arange(5.0))
print(len(history), "entries, all tracers")
