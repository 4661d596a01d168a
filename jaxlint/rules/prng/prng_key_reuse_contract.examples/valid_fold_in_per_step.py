import jax
import jax.numpy as jnp


def rollout(key, logits, steps):
    actions = [jax.random.categorical(jax.random.fold_in(key, i), logits) for i in range(steps)]
    return jnp.stack(actions)


rollout(jax.random.key(0), jnp.zeros(4), 3)
