import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def body(carry, _):
    key, x = carry
    x = x + jax.random.normal(key, x.shape)
    return (key, x), x


def walk(key, x0):
    return jax.lax.scan(body, (key, x0), None, length=3)


walk(jax.random.key(0), jnp.zeros(2))
