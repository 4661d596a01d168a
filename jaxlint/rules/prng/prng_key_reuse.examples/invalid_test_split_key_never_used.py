import jax

jax.config.update("jax_debug_key_reuse", True)


def test_bounds():
    key = jax.random.key(0)
    key1, key2 = jax.random.split(key)
    sign = jax.random.bernoulli(key1)
    x = jax.random.uniform(key, (3,))
    assert x.shape == (3,) and sign.shape == ()


test_bounds()
