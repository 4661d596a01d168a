import jax


class Agent:
    def __init__(self, seed):
        self.rng = jax.random.key(seed)

    def act(self, obs):
        noise = jax.random.normal(self.rng, obs.shape)
        idx = jax.random.randint(self.rng, (), 0, obs.shape[0])  # expect: JAX301
        return obs + noise, idx
