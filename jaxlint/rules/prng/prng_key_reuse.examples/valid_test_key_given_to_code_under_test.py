import jax
from mylib import sampler


def test_step_keeps_shape():
    key = jax.random.key(0)
    x = jax.random.normal(key, (3,))
    assert sampler.step(key, x).shape == x.shape
