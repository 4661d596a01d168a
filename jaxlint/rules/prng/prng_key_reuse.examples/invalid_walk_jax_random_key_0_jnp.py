import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def walk(key, xs):
    return jax.lax.scan(lambda c, x: (c + x * jax.random.normal(key), c), 0.0, xs)


walk(jax.random.key(0), jnp.arange(3.0))
