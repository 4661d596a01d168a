import jax


@jax.jit
def f(x):
    print(x, end='')
    return x
