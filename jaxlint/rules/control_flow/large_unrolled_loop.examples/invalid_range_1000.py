import jax

@jax.jit
def simulate(x):
    for _ in range(1000):
        x = x + 0.01 * x
    return x
