import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def noisy(key, mask):
    noise = jax.random.normal(key, (4,))
    # the alternative draws from `key` again: where `mask` is False, it repeats `noise`
    return jnp.where(mask, noise, jax.random.normal(key, (4,)))


noisy(jax.random.key(0), jnp.array([True, False, True, False]))
