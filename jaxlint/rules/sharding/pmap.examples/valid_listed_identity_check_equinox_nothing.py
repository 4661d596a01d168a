import jax

_TRANSFORMS = {jax.jit, jax.vmap, jax.pmap}

def is_transform(f):
    return f in _TRANSFORMS
