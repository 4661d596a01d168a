import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def test_deal_is_a_permutation():
    key = jax.random.key(0)
    for _ in range(100):
        deal = jax.random.permutation(key, 52)
        assert bool(jnp.all(jnp.sort(deal) == jnp.arange(52)))


test_deal_is_a_permutation()
