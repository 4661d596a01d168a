import jax

def prepare(transform, rng):
    if transform is jax.pmap:
        rng = rng[None]
    return rng
