import jax


class TestNoise:
    def setup_method(self):
        self.key = jax.random.key(0)

    def test_mean(self):
        x = jax.random.normal(self.key, (1000,))
        assert abs(float(x.mean())) < 0.2

    def test_shape(self):
        assert jax.random.normal(self.key, (3,)).shape == (3,)
