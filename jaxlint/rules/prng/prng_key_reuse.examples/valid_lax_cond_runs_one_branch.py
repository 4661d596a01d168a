import jax

jax.config.update("jax_debug_key_reuse", True)


def f(key, pred):
    x = jax.lax.cond(
        pred, lambda: jax.random.normal(key), lambda: jax.random.uniform(key)
    )
    return x


f(jax.random.key(0), True)
