import google_benchmark
import jax
from jax import lax


@jax.jit
def g(x, y):
    return lax.add(x, y)


@google_benchmark.register
def bench_nested_jit_tracing(state):
    x = jax.numpy.ones((2, 2))
    while state:
        # a new function each round: the benchmark times tracing and compiling it

        @jax.jit
        def f(x):
            for _ in range(100):
                x = g(x, x)
            return x

        f(x).block_until_ready()
