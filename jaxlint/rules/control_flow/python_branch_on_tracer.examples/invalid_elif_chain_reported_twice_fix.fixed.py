import jax

@jax.jit
def sign(x):
    if x > 0:
        s = 1.0
    elif x < 0:
        s = -1.0
    else:
        s = 0.0
    return s

sign(2.0)
