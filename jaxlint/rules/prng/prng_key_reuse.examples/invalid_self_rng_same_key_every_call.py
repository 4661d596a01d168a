import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


class Explorer:
    def __init__(self, seed):
        self.rng = jax.random.key(seed)

    def explore(self, action):
        return action + 0.1 * jax.random.normal(self.rng, action.shape)


explorer = Explorer(0)
for _ in range(2):
    explorer.explore(jnp.zeros(2))
