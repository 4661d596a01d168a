import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def train(update, params, step_rng, batches, epochs):
    for _ in range(epochs):
        rng, step_rng = jax.random.split(step_rng)
        order = jax.random.permutation(step_rng, len(batches))
        for i in order:
            rng, step_rng = jax.random.split(rng)
            params = update(params, step_rng, batches[i])
    return params


def noisy_step(params, key, batch):
    return params + jax.random.normal(key, params.shape) * batch


step = noisy_step
train(step, jnp.zeros(3), jax.random.key(0), jnp.ones(4), 2)
