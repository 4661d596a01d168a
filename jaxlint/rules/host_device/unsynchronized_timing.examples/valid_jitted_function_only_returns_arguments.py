import time
import jax
import jax.numpy as jnp


@jax.jit
def step(graphdef, state):
    return graphdef, state


graphdef, state = jnp.ones(2), jnp.zeros(2)
t0 = time.time()
for _ in range(100):
    graphdef, state = step(graphdef, state)
total_time = time.time() - t0
