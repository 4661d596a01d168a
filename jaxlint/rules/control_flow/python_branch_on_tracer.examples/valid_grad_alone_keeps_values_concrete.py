import jax

@jax.grad
def f(x):
    if x > 0:
        return x * x
    return -x

f(1.0)
