import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def noisy(key, shape, keep):
    signal = jax.random.normal(key, shape)
    jitter = jax.random.uniform(key, shape)
    # the first alternative adds the two draws of one key together
    return jnp.where(keep, signal + jitter, signal)


noisy(jax.random.key(0), (3,), jnp.array([True, False, True]))
