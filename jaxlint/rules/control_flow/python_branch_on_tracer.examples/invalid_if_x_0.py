import jax

@jax.jit
def relu(x):
    if x > 0:
        y = x
    else:
        y = 0.0
    return y

relu(1.0)
