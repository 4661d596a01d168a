import jax
import jax.numpy as jnp


def test_noise_is_centred():
    key = jax.random.key(0)
    noise = jax.random.normal(key, (1000,))
    key, sub = jax.random.split(key)
    more = jax.random.normal(sub, (1000,))
    assert abs(float(jnp.mean(noise))) < 0.2
    assert abs(float(jnp.mean(more))) < 0.2


test_noise_is_centred()
