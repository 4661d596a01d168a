import jax

jax.config.update("jax_debug_key_reuse", True)


@jax.jit
def f(key):
    keys = jax.random.split(key, 3)
    return jax.random.normal(keys[0]) + jax.random.uniform(keys[0])


f(jax.random.key(7))
