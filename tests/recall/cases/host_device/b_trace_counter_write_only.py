import jax
import jax.numpy as jnp

n_traces = 0


@jax.jit
def f(x):
    global n_traces
    n_traces += 1  # counts compilations on purpose
    return x * 2


f(jnp.ones(3))
f(jnp.ones(3))
assert n_traces == 1
