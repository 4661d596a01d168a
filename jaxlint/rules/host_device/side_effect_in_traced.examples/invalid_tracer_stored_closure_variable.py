import jax


def make():
    last = None

    @jax.jit
    def f(x):
        nonlocal last
        last = x * 2
        return x

    return f
