import jax

@jax.jit
def f(x):
    for _ in range(60):
        x = x * 2
    return x
