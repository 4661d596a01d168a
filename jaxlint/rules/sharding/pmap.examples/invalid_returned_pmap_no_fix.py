import jax

def make(step):
    return jax.pmap(step, axis_name='batch')
