import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def step(key, done):
    new_key, noise_key = jax.random.split(key)
    noise = jax.random.normal(noise_key, (3,))
    # when `done`, the split key is passed on and drawn from again by the next step
    key = jnp.where(done, key, new_key)
    return key, noise


step(jax.random.key(0), jnp.array(True))
