import jax

_RNG = jax.random.PRNGKey(42)


class Sampler:
    def draw(self, n):
        return jax.random.choice(_RNG, n)
