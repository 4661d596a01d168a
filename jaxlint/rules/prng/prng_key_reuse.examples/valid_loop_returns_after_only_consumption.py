import jax

jax.config.update("jax_debug_key_reuse", True)


def first_positive(key, xs):
    for x in xs:
        if x > 0:
            return x * jax.random.normal(key)
    return 0.0


first_positive(jax.random.key(0), [-1.0, 2.0, 3.0])
