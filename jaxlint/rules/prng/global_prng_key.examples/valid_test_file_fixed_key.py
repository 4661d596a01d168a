import jax
import jax.numpy as jnp

KEY = jax.random.key(0)


def test_softmax_sums_to_one():
    logits = jax.random.normal(KEY, (4, 3))
    assert bool(jnp.allclose(jax.nn.softmax(logits).sum(-1), 1.0, atol=1e-5))


test_softmax_sums_to_one()
