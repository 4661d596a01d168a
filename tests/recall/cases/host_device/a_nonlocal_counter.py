import jax
import jax.numpy as jnp


def make_counter():
    calls = 0

    @jax.jit
    def step(x):
        nonlocal calls
        calls += 1  # expect: JAX104
        return x * 2

    return step
