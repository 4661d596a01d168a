import jax

@jax.grad
def f(x):
    y = x
    while y < 10.0:
        y = y * 2
    return y

f(1.0)
