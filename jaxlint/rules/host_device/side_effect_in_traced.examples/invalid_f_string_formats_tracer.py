import logging
import jax


@jax.jit
def f(x):
    logging.warning(f'x is {x}')
    return x
