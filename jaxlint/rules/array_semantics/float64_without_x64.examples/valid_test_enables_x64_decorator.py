import jax
import jax.numpy as jnp


@jax.enable_x64(True)
def test_sum_of_tenths_in_double():
    x = jnp.full(10, 0.1, dtype=jnp.float64)
    assert x.dtype == jnp.float64
    assert abs(float(x.sum()) - 1.0) < 1e-15


if __name__ == "__main__":
    test_sum_of_tenths_in_double()
