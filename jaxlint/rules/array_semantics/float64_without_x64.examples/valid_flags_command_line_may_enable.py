import jax
from absl.testing import absltest
import jax.numpy as jnp
jax.config.parse_flags_with_absl()

class T(absltest.TestCase):
    def test(self):
        jnp.zeros(2, jnp.float64)
