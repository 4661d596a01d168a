import jax

jax.config.update("jax_debug_key_reuse", True)


class Sampler:
    def __init__(self, seed):
        self.rng = jax.random.key(seed)
        self.calls = 0

    def count(self):
        self.calls += 1

    def draw(self):
        a = jax.random.uniform(self.rng)
        self.count()
        b = jax.random.uniform(self.rng)
        return a, b


Sampler(0).draw()
