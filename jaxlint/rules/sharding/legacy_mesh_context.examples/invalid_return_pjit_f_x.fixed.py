import jax
from jax.experimental.pjit import pjit

def run(mesh: jax.sharding.Mesh, f, x):
    with jax.set_mesh(mesh):
        return pjit(f)(x)
