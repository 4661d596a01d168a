import jax

jax.config.update("jax_debug_key_reuse", True)


def f(key):
    bits = jax.random.key_data(key)
    same = jax.random.clone(key) == key
    return jax.random.normal(key, (2,)), bits, same


f(jax.random.key(0))
