import jax
import jax.numpy as jnp


def update(x):
    return x * 0.5


def run(x, steps):
    i = 0
    while i < steps:
        x = jax.jit(update)(x)  # expect: JAX401
        i += 1
    return x


print(run(jnp.ones(4), 10))
