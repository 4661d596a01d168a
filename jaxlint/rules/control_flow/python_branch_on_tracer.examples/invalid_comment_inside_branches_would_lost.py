import jax

@jax.jit
def f(x):
    # pick a branch
    if x > 0:
        y = x  # positive
    else:
        y = -x
    return y

f(1.0)
