import jax

class Buffer:
    def __init__(self, mesh: jax.sharding.Mesh):
        self._mesh = mesh

    def size(self):
        with jax.set_mesh(self._mesh), open('f') as fh:
            return fh.read()
