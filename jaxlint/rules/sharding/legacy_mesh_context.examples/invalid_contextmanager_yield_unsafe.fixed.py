import contextlib

import jax

@contextlib.contextmanager
def sharded(mesh: jax.sharding.Mesh):
    with jax.set_mesh(mesh):
        yield mesh
