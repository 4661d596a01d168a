from flax import nnx

@nnx.pmap(axis_size=1)
def f(x):
    return x
