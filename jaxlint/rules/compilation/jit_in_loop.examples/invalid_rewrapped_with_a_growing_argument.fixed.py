import jax
import jax.numpy as jnp


def step(total, history):
    history = jnp.concatenate([history, total[None]])
    return total + 1.0, history


total, history = jnp.zeros(()), jnp.zeros(1)
step_jit = jax.jit(step)
for i in range(1000):
    total, history = step_jit(total, history)
