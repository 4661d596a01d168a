import jax
import jax.numpy as jnp


def cond(state):
    return state[0] < 10.0


def body(state):
    state[0] += 1.0  # expect: JAX601
    return state


print(jax.lax.while_loop(cond, body, jnp.zeros(2)))
