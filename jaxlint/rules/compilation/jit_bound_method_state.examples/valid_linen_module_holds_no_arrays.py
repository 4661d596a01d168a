import jax
import flax.linen as nn

class Predictor:
    def __init__(self, model: nn.Dense, params):
        self.model = model
        self.predict = jax.jit(self._predict)

    def _predict(self, params, x):
        return self.model.apply(params, x)
