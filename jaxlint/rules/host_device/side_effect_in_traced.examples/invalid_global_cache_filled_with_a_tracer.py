import jax

_scale = None


@jax.jit
def scale(x):
    global _scale
    if _scale is None:  # a cache, but filled with a traced value
        _scale = x * 2.0
    return x * _scale
