import jax

jax.config.update("jax_debug_key_reuse", True)


class Sampler:
    def __init__(self, seed):
        self._rng = jax.random.key(seed)

    @property
    def rng(self):
        self._rng, sub = jax.random.split(self._rng)
        return sub

    def draw(self):
        a = jax.random.normal(self.rng)
        b = jax.random.uniform(self.rng)
        return a, b


Sampler(0).draw()
