import jax

jax.config.update("jax_debug_key_reuse", True)


def f(key):
    assert jax.dtypes.issubdtype(key.dtype, jax.dtypes.prng_key)
    k1, k2 = jax.random.split(key)
    return jax.random.normal(k1), jax.random.normal(k2)


f(jax.random.key(0))
