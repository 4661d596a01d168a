import jax

def pjit(f):
    return jax.jit(f)

step = pjit(g)
