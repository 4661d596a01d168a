import jax

jax.config.update("jax_debug_key_reuse", True)


def test_masked_mean():
    key = jax.random.key(0)
    x = jax.random.normal(key, (8,))
    mask = jax.random.bernoulli(key, 0.5, (8,))
    assert (x * mask).shape == (8,)


test_masked_mean()
