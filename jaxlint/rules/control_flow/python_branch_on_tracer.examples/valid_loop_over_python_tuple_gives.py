import jax
from jax import lax

def body(i, c):
    for layer in (1, 2, 3):
        if layer > 1:
            c = c * layer
    return c

lax.fori_loop(0, 3, body, 1.0)
