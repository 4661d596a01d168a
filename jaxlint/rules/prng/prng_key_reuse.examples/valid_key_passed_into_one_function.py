import jax

jax.config.update("jax_debug_key_reuse", True)


def init_layer(key, n):
    return jax.random.normal(key, (n, n))


def init(key):
    k1, k2 = jax.random.split(key)
    return init_layer(k1, 3), init_layer(k2, 3)


init(jax.random.key(0))
