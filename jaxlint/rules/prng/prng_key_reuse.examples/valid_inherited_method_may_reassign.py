import jax
from rl_base import BaseAgent


class Agent(BaseAgent):
    def act(self, obs):
        noise = jax.random.normal(self.rng, obs.shape)
        self.next_rng()
        idx = jax.random.randint(self.rng, (), 0, obs.shape[0])
        return obs + noise, idx
