import jax

@jax.jit
def f(x: jax.Array, flag: bool):
    if flag:
        return x
    return -x

f(1.0, True)
