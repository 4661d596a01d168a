import contextlib

import jax

@contextlib.contextmanager
def sharded(mesh: jax.sharding.Mesh):
    with mesh:
        yield mesh
