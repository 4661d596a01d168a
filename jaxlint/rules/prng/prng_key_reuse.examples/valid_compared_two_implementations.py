import jax
import numpy as np


def fast_noise(key, n):
    return jax.random.normal(key, (n,))


def reference_noise(key, n):
    return np.asarray(jax.random.normal(key, (n,)))


def test_fast_matches_reference():
    key = jax.random.key(0)
    np.testing.assert_allclose(fast_noise(key, 4), reference_noise(key, 4))


test_fast_matches_reference()
