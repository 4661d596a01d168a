import jax


class Agent:
    def __init__(self, seed):
        self.rng = jax.random.key(seed)

    def act(self, obs):
        self.rng, noise_key, idx_key = jax.random.split(self.rng, 3)
        noise = jax.random.normal(noise_key, obs.shape)
        idx = jax.random.randint(idx_key, (), 0, obs.shape[0])
        return obs + noise, idx
