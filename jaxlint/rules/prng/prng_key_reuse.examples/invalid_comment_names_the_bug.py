import jax

jax.config.update("jax_debug_key_reuse", True)


def noisy(key, shape):
    a = jax.random.normal(key, shape)
    b = jax.random.normal(key, shape)  # the same key again: b == a
    return a + b


noisy(jax.random.key(0), (3,))
