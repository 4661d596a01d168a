import jax.numpy as jnp
import numpy as np


class TestCumsum:
    def test_matches_numpy_in_double(self):
        x = jnp.arange(1000, dtype=jnp.float64) * 0.1
        np.testing.assert_allclose(jnp.cumsum(x), np.cumsum(np.arange(1000) * 0.1), rtol=1e-5)


if __name__ == "__main__":
    TestCumsum().test_matches_numpy_in_double()
