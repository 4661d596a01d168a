import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def pick(key, weights):
    index = jax.random.choice(key, weights.shape[0], p=weights)
    key, _ = jax.random.split(key)
    return index, key


pick(jax.random.key(0), jnp.array([0.2, 0.8]))
