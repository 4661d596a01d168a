import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def walk(key, x):
    while x.sum() < 10:
        key, sub = jax.random.split(key)
        x = x + jax.random.uniform(sub, x.shape)
        x = x + jax.random.uniform(sub, x.shape)
    return x


walk(jax.random.key(0), jnp.zeros(2))
