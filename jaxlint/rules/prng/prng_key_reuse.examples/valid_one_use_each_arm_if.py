import jax

jax.config.update("jax_debug_key_reuse", True)


def pick(key, flip):
    if flip:
        x = jax.random.normal(key, (2,))
    else:
        x = jax.random.uniform(key, (2,))
    return x


pick(jax.random.key(0), True)
pick(jax.random.key(1), False)
