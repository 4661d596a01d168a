from jax import jit, pmap

def run(h, x):
    f = pmap(lambda x: x + 1)
    g = pmap(h, 'i')
    return f(x), g(x)
