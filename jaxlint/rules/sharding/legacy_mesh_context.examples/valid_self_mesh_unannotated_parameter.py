import jax

class Trainer:
    def __init__(self, mesh):
        self.mesh = mesh

    def run(self):
        with self.mesh:
            pass
