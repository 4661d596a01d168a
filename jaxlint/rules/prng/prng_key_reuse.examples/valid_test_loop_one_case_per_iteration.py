import jax
import jax.numpy as jnp


def test_softmax_sums_to_one():
    key = jax.random.key(0)
    for shape in [(3,), (2, 5), (4, 4)]:
        logits = jax.random.normal(key, shape)
        total = jax.nn.softmax(logits).sum(axis=-1)
        assert bool(jnp.allclose(total, 1.0, atol=1e-5))


test_softmax_sums_to_one()
