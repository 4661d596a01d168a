import jax


@jax.jit
def f(params, x):
    print(params.keys(), type(x).__name__)
    return x
