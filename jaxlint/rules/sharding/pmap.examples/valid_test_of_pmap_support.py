import jax
import jax.numpy as jnp


def test_add_is_pmappable():
    n = jax.local_device_count()
    out = jax.pmap(lambda x: x + 1)(jnp.zeros((n, 2)))
    assert out.shape == (n, 2)
