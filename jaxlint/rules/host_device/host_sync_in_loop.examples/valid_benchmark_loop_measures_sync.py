import google_benchmark
import jax
import jax.numpy as jnp


@jax.jit
def fn(x):
    return [x + x for _ in range(50)]


@google_benchmark.register
def device_get_many_arrays(state):
    inp = jnp.ones(8)
    jax.device_get(fn(inp))
    while state:
        jax.device_get(fn(inp))  # what the benchmark measures
