import jax

class Buffer:
    def __init__(self, mesh: jax.sharding.Mesh):
        self._mesh = mesh

    def size(self):
        with self._mesh, open('f') as fh:
            return fh.read()
