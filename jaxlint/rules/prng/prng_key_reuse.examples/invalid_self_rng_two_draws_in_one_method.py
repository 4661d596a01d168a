import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


class Agent:
    def __init__(self, seed):
        self.rng = jax.random.key(seed)

    def act(self, obs):
        noise = jax.random.normal(self.rng, obs.shape)
        scale = jax.random.uniform(self.rng, obs.shape)
        return obs + noise * scale


Agent(0).act(jnp.zeros(3))
