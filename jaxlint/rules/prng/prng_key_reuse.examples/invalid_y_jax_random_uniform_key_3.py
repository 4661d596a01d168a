import jax

jax.config.update("jax_debug_key_reuse", True)


def sample(key):
    x = jax.random.normal(key, (3,))
    y = jax.random.uniform(key, (3,))
    return x + y


sample(jax.random.key(0))
