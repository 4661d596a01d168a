import jax


class Dropout:
    def __init__(self, rate, key):
        self.rate = rate
        self.key = key

    def __call__(self, x):
        keep = jax.random.bernoulli(self.key, 1.0 - self.rate, x.shape)  # expect: JAX301
        return x * keep / (1.0 - self.rate)
