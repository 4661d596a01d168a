import jax

jax.config.update("jax_debug_key_reuse", True)


def init(key):
    w_init = jax.nn.initializers.lecun_normal()
    w = w_init(key, (3, 3))
    b = jax.random.normal(key, (3,))
    return w, b


init(jax.random.key(0))
