import jax
import jax.numpy as jnp
from jax import lax

history = []


def body(state, x):
    state = 0.9 * state + 0.1 * x
    jax.debug.callback(lambda v: history.append(float(v)), state)
    return state, state


final, trace = lax.scan(body, jnp.zeros(()), jnp.arange(5.0))
jax.effects_barrier()
print(history)
