import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def noise_components(key, n):
    return jax.random.normal(key, (n,))


def forecast(key, level, n):
    noise = noise_components(key, n)
    key, sub = jax.random.split(key)
    return level + noise, sub


forecast(jax.random.key(0), jnp.zeros(3), 3)
