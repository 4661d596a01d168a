import jax
import jax.numpy as jnp
import pytest


@pytest.fixture(autouse=True)
def x64():
    jax.config.update("jax_enable_x64", True)
    yield
    jax.config.update("jax_enable_x64", False)


def test_cumsum_in_double():
    x = jnp.arange(1000, dtype=jnp.float64) * 0.1
    assert jnp.cumsum(x).dtype == jnp.float64
