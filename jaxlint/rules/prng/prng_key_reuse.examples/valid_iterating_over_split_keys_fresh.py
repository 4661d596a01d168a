import jax

jax.config.update("jax_debug_key_reuse", True)


def draws(key):
    return [jax.random.normal(k, (2,)) for k in jax.random.split(key, 3)]


draws(jax.random.key(0))
