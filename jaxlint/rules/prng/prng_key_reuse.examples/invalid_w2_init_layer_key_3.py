import jax

jax.config.update("jax_debug_key_reuse", True)


def init_layer(key, n):
    return jax.random.normal(key, (n, n))


def init(key):
    w1 = init_layer(key, 3)
    w2 = init_layer(key, 3)
    return w1, w2


init(jax.random.key(0))
