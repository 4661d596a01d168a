import functools
import jax

def scale(x, k):
    return x * k

def apply(x, k):
    f = jax.jit(functools.partial(scale, k=k))
    return f(x)
