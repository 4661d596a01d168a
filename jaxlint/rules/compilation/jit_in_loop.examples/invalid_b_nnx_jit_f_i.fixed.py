import equinox as eqx
from flax import nnx

def f(x):
    return x

f_jit = eqx.filter_jit(f)
f_jit_2 = nnx.jit(f)
for i in range(1000):
    a = f_jit(i)
    b = f_jit_2(i)
