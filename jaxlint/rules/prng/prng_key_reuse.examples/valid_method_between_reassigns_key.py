import jax

jax.config.update("jax_debug_key_reuse", True)


class Sampler:
    def __init__(self, seed):
        self.rng = jax.random.key(seed)

    def reseed(self, seed):
        self.rng = jax.random.key(seed)

    def draw(self):
        a = jax.random.uniform(self.rng)
        self.reseed(1)
        b = jax.random.uniform(self.rng)
        self.reseed(2)
        return a, b


sampler = Sampler(0)
sampler.draw()
sampler.draw()
