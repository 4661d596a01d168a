import equinox as eqx
from flax import nnx

def f(x):
    return x

for i in range(1000):
    a = eqx.filter_jit(f)(i)
    b = nnx.jit(f)(i)
