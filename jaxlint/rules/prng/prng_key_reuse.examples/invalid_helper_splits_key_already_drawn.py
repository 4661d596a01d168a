import jax

jax.config.update("jax_debug_key_reuse", True)


class Sampler:
    def __init__(self, seed):
        self.rng = jax.random.key(seed)

    def _advance(self):
        self.rng, _ = jax.random.split(self.rng)

    def draw(self):
        a = jax.random.uniform(self.rng)
        self._advance()
        return a


Sampler(0).draw()
