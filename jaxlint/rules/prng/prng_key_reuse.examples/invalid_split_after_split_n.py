import jax

jax.config.update("jax_debug_key_reuse", True)


def init(key):
    layer_keys = jax.random.split(key, 3)
    dropout_key, noise_key = jax.random.split(key)  # the same keys as layer_keys[:2]
    return layer_keys, dropout_key, noise_key


init(jax.random.key(0))
