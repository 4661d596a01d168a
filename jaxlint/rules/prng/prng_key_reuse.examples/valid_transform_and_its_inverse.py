import jax
import jax.numpy as jnp


def rotate(x, key):
    signs = jax.random.rademacher(key, x.shape, dtype=x.dtype)
    return x * signs


def inverse_rotate(y, key):
    signs = jax.random.rademacher(key, y.shape, dtype=y.dtype)
    return y * signs


def roundtrip(x, key):
    return inverse_rotate(rotate(x, key), key)


x = jnp.arange(4.0)
assert jnp.allclose(roundtrip(x, jax.random.key(0)), x)
