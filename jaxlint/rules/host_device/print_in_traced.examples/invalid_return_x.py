from jax import jit


@jit
def f(x):
    print(x)
    return x
