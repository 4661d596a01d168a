import jax


class Trainer:
    def __init__(self, fn):
        self.step = jax.jit(fn)

    def fit(self, state, loader):
        for batch in loader:
            state, loss = self.step(state, batch)
            self.pbar.set_postfix(loss=float(loss))
        return state
