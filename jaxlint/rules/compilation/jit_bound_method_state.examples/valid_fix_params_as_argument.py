import jax
import jax.numpy as jnp

class Agent:
    def __init__(self, params):
        self.params = params
        self._act_fn = jax.jit(self._act)

    def _act(self, params, obs):
        return params * obs

    def act(self, obs):
        return self._act_fn(self.params, obs)

    def update(self, params):
        self.params = params

agent = Agent(jnp.ones(3))
agent.act(jnp.ones(3))
agent.update(jnp.zeros(3))
print(agent.act(jnp.ones(3)))  # [0. 0. 0.]
