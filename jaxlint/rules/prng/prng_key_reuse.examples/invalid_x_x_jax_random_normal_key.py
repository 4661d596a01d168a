import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def noisy(key, x):
    for _ in range(3):
        x = x + jax.random.normal(key, x.shape)
    return x


noisy(jax.random.key(0), jnp.zeros(3))
