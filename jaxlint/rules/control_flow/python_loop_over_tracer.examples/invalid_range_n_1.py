import jax

@jax.jit
def power(x, n):
    y = x
    for _ in range(n - 1):
        y = y * x
    return y

power(2.0, 3)
