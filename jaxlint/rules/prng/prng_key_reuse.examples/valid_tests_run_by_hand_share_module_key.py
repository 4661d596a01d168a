import jax
import jax.numpy as jnp

KEY = jax.random.key(0)


def test_mean_is_near_zero():
    x = jax.random.normal(KEY, (1000,))
    assert abs(float(jnp.mean(x))) < 0.2


def test_std_is_near_one():
    x = jax.random.normal(KEY, (1000,))
    assert abs(float(jnp.std(x)) - 1.0) < 0.2


if __name__ == "__main__":
    test_mean_is_near_zero()
    test_std_is_near_one()
