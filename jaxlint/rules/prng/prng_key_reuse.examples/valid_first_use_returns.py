import jax

jax.config.update("jax_debug_key_reuse", True)


def pick(key, flip):
    if flip:
        return jax.random.normal(key, (2,))
    return jax.random.uniform(key, (2,))


pick(jax.random.key(0), True)
