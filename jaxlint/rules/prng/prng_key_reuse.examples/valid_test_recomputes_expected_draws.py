import jax
import numpy as np


def sample(key):
    k1, k2 = jax.random.split(key)
    z = jax.random.normal(k1)
    return {"z": z, "x": z + jax.random.normal(k2)}


def test_sample_draws_x_around_z():
    key = jax.random.key(0)
    k1, k2 = jax.random.split(key)
    # the expected values redo the sampler's draws with its keys: `x` is built on `z`
    np.testing.assert_allclose(sample(key)["z"], jax.random.normal(k1))
    np.testing.assert_allclose(sample(key)["x"], jax.random.normal(k1) + jax.random.normal(k2))


test_sample_draws_x_around_z()
