import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def layer(key, x, training=True):
    if training:
        x = x * jax.random.bernoulli(key, 0.9, x.shape)
    return x + jax.random.normal(key, x.shape)


layer(jax.random.key(0), jnp.ones(3))
