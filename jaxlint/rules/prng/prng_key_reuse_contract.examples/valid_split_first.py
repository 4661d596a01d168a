import jax
import jax.numpy as jnp


def rollout(key, logits, steps):
    actions = []
    for _ in range(steps):
        key, sub = jax.random.split(key)
        actions.append(jax.random.categorical(sub, logits))
    return jnp.stack(actions)


rollout(jax.random.key(0), jnp.zeros(4), 3)
