from jax import jit, pmap

f = pmap(lambda x: x + 1)
g = pmap(h, 'i')
