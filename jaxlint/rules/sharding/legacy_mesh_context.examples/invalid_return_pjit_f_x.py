import jax
from jax.experimental.pjit import pjit

def run(mesh: jax.sharding.Mesh, f, x):
    with mesh:
        return pjit(f)(x)
