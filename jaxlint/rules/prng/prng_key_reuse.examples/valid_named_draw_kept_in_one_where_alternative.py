import jax
import jax.numpy as jnp


def mixture(key, use_normal, scale):
    """A scaled normal where `use_normal` is set, an exponential elsewhere."""
    z = jax.random.normal(key, use_normal.shape)
    # `z` is kept only in the first alternative: each position keeps one of the two draws
    return jnp.where(use_normal, scale * z, jax.random.exponential(key, use_normal.shape))


mixture(jax.random.key(0), jnp.array([True, False, True, False]), 2.0)
