from jax.experimental.pjit import pjit


def build(jax, f):
    return pjit(f)
