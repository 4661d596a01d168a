from jax import jit as pjit


def build(jax, f):
    return pjit(f)
