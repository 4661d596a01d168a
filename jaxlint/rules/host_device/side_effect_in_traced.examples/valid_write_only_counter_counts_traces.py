import jax
import jax.numpy as jnp

traces = 0


@jax.jit
def f(x):
    global traces
    traces += 1
    return x + 1


def g_factory():
    n = 0

    @jax.jit
    def g(x):
        nonlocal n
        n = n + 1
        return x

    return g


for _ in range(3):
    f(jnp.ones(2))
assert traces == 1
