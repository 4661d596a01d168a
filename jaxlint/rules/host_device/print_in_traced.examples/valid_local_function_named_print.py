import jax


def print(*args):
    pass


@jax.jit
def f(x):
    print(x)
    return x
