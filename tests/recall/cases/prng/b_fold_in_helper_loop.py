import jax
import jax.numpy as jnp

BASE = jax.random.key(0)


def step_key(step):
    return jax.random.fold_in(BASE, step)


w = jnp.zeros(3)
for step in range(100):
    w = w + 0.01 * jax.random.normal(step_key(step), w.shape)
