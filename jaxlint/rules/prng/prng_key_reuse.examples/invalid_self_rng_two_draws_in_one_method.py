import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


class Agent:
    def __init__(self, seed):
        self.rng = jax.random.key(seed)

    def act(self, obs):
        noise = jax.random.normal(self.rng, obs.shape)
        idx = jax.random.randint(self.rng, (), 0, obs.shape[0])
        return obs + noise, idx


Agent(0).act(jnp.zeros(3))
