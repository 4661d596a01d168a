import jax
import jax.numpy as jnp

class Agent:
    def __init__(self, params):
        self.params = params
        self.act = jax.jit(self._act)

    def _act(self, obs):
        return self.params * obs

    def update(self, params):
        self.params = params

agent = Agent(jnp.ones(3))
agent.act(jnp.ones(3))
agent.update(jnp.zeros(3))
print(agent.act(jnp.ones(3)))  # [1. 1. 1.]: the first trace's params
