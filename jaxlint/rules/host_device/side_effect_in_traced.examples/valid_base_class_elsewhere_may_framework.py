import jax


class Trainer(BaseTrainer):
    @jax.jit
    def step(self, x):
        self.last = x
        return x
