import jax
import jax.numpy as jnp
from flax import nnx


class Policy:
    def __init__(self):
        self.model = nnx.Linear(2, 1, rngs=nnx.Rngs(0))
        self.graphdef, _ = nnx.split(self.model)
        self._act_fn = jax.jit(self._act)

    def _act(self, state, obs):
        return nnx.merge(self.graphdef, state)(obs)

    def act(self, obs):
        return self._act_fn(nnx.state(self.model), obs)


policy = Policy()
obs = jnp.ones((1, 2))
policy.act(obs)
policy.model.kernel[...] = jnp.zeros((2, 1))
print(policy.act(obs))  # [[0.]]: the state is an argument
