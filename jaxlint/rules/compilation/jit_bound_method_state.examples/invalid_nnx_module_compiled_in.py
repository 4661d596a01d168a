import jax
import jax.numpy as jnp
from flax import nnx


class Policy:
    def __init__(self):
        self.model = nnx.Linear(2, 1, rngs=nnx.Rngs(0))
        self.act = jax.jit(self._act)

    def _act(self, obs):
        return self.model(obs)


policy = Policy()
obs = jnp.ones((1, 2))
policy.act(obs)
policy.model.kernel[...] = jnp.zeros((2, 1))  # an optimizer step, in place
print(policy.act(obs), policy.model(obs))  # the jitted one still uses the old kernel
