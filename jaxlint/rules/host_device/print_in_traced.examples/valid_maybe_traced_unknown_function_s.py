import jax
from mylib import summarize


@jax.jit
def f(x):
    print(summarize(x))
    return x
